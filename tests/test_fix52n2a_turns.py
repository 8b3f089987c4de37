"""Review 52n2 #1 and #5: every turn is searched or remembered, and what was meant is searched without 的是.

A clause memory keeps nothing from (a verb of asking, knowing or thinking as its main verb) is asked, not told;
a wish to know after a space (我是新员工 想问下试用期) is a clause of its own, as after a comma."""

from __future__ import annotations

import pytest
from fakes import fake_assistant_with_samples

from rag_core.conversations.statements import split_turn
from rag_core.memory.extraction import rule_facts


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    a = fake_assistant_with_samples(tmp_path_factory.mktemp("n2a") / "store")
    return a


@pytest.mark.parametrize("turn", ["我看不懂工资条", "我觉得加班费算错了", "我在了解年假政策"])
def test_a_clause_of_knowing_or_thinking_is_asked(turn):
    parts = split_turn(turn)
    assert parts.question == turn and not parts.statement
    assert rule_facts(turn) == []  # memory keeps nothing from it: it must be searched


def test_a_wish_to_know_after_a_space_is_a_clause_of_its_own():
    parts = split_turn("我是新员工 想问下试用期")
    assert parts.statement == "我是新员工" and parts.question == "试用期"
    assert [f.content for f in rule_facts("我是新员工 想问下试用期")] == ["用户是新员工"]


def test_a_told_clause_keeps_its_thinking_clause_asked():
    parts = split_turn("我是销售，觉得提成太少")
    assert parts.statement == "我是销售" and "提成太少" in parts.question


@pytest.mark.parametrize("turn", ["我是新员工 想问下试用期", "我看不懂工资条", "我觉得加班费算错了", "我在了解年假政策"])
def test_the_turn_is_searched_or_remembered(assistant, turn):
    user = "n2a-" + turn
    trace = assistant.ask(turn, user=user, conversation="c-" + turn)
    memories = [m.content for m in assistant.list_memories(user)]
    assert trace.search.query or memories, trace.answer
    assert "没有我能记住的个人信息" not in trace.answer


@pytest.mark.parametrize(("said", "meant"), [
    ("我想知道的是病假工资", "病假工资"), ("我想了解的是报销流程", "报销流程"), ("我要咨询的其实是婚假", "婚假"),
    ("我想问的是婚假", "婚假"), ("我想知道一下怎么请假", "怎么请假"),
])
def test_what_was_meant_is_searched_without_the_cleft(said, meant):
    """Review 52n2 #5: 我想知道的是X searched the literal 的是X."""
    assert split_turn(said).question == meant


def test_a_wish_after_a_statement_is_searched_without_the_cleft():
    parts = split_turn("我是新员工，想知道的是试用期多久")
    assert (parts.statement, parts.question) == ("我是新员工", "试用期多久")
