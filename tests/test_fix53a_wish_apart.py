"""Review 53 #1: a statement glued to a wish to know with no mark between (我怀孕了想问下产假) is split as after a
comma or a space: what the person told is remembered and what they asked is searched. The split no longer needs
a statement's opener (我是/我在…); a question that only mentions the person (我想问下产假) is searched as before."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.statements import split_turn


@pytest.mark.parametrize(("typed", "asked"), [("我怀孕了想问下产假", "产假"), ("我刚入职想问下试用期", "试用期"),
                                              ("我下个月结婚想了解一下婚假", "婚假")])
def test_a_glued_statement_leaves_its_question_searched(tmp_path, typed, asked):
    trace = fake_assistant(tmp_path / "s").ask(typed, user="u", conversation="c")
    assert asked in trace.search_question


@pytest.mark.parametrize(("typed", "told", "asked"), [
    ("我怀孕了想问下产假", "我怀孕了", "产假"), ("我刚入职想问下试用期", "我刚入职", "试用期"),
    ("我下个月结婚想了解一下婚假", "我下个月结婚", "婚假"), ("我上周出差了想问下补贴", "我上周出差了", "补贴"),
    ("我怀孕了有些问题想问", "我怀孕了", ""), ("我刚入职有几个疑问", "我刚入职", ""),
    ("我家孩子生病了想问下", "我家孩子生病了", ""),  # 想问下 names nothing: no question '下'
])
def test_the_statement_is_told_and_the_wish_asked(typed, told, asked):
    parts = split_turn(typed)
    assert (parts.statement, parts.question) == (told, asked)


@pytest.mark.parametrize(("typed", "asked"), [
    ("我想问下产假", "产假"), ("我想了解一下婚假", "婚假"), ("我是想问下年假", "年假"), ("我是来问下年假", "年假"),
    ("我刚才想问下年假", "年假"), ("我也想问下年假", "年假"), ("我要请假想问下流程", "我要请假想问下流程"),
    ("我是说下周加班", "下周加班"),
])
def test_a_question_that_only_mentions_the_person_tells_nothing(typed, asked):
    parts = split_turn(typed)
    assert (parts.statement, parts.question) == ("", asked)


@pytest.mark.parametrize("typed", ["我是理想问题专家", "我老公想了解一下陪产假"])
def test_no_split_inside_a_word_or_after_a_bare_person(typed):
    assert "，" not in split_turn(typed).statement


def test_the_glued_statement_is_remembered_without_the_wish(tmp_path):
    a = fake_assistant(tmp_path / "s")
    trace = a.ask("我怀孕了想问下产假", user="u", conversation="c")
    kept = [m.content for m in a.list_memories("u")]
    assert kept == ["用户怀孕了"], kept
    assert "想问" not in trace.answer
