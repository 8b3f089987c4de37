"""Review 52r2 #3: a clause that announces a question (想问个问题, 有个问题, 问一下, 请教一下) is talk about the
conversation, not something told of the person: memory keeps the clause beside it (我是新员工), never the wish."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.statements import split_turn
from rag_core.memory.extraction import rule_facts
from rag_core.text.discourse import about_conversation


@pytest.mark.parametrize("clause", ["想问个问题", "有个问题", "我想问个问题", "我有几个问题", "请教一下", "我想请教一下",
                                    "有个问题想问一下", "还有个小问题", "想咨询个问题"])
def test_an_announced_question_is_talk(clause):
    assert about_conversation(clause) == ""


@pytest.mark.parametrize(("clause", "meant"), [("想问个问题：年假几天", "年假几天"), ("请教一下年假怎么算", "年假怎么算")])
def test_what_follows_an_announcement_is_what_is_asked(clause, meant):
    assert about_conversation(clause) == meant


@pytest.mark.parametrize(("turn", "told"), [("我在公司 想问个问题", "我在公司"), ("我是新员工 有个问题", "我是新员工"),
                                            ("我是新员工，有个问题", "我是新员工"), ("我是新员工有个问题", "我是新员工"),
                                            ("我是新员工，有个问题想问一下", "我是新员工"), ("我是新员工，请教一下", "我是新员工")])
def test_the_statement_beside_an_announcement_is_told_alone(turn, told):
    parts = split_turn(turn)
    assert parts.statement == told and parts.question == ""


@pytest.mark.parametrize(("turn", "fact"), [("我在公司 想问个问题", "用户在公司"), ("我是新员工 有个问题", "用户是新员工")])
def test_rule_facts_leave_the_announcement_out(turn, fact):
    assert [f.content for f in rule_facts(turn)] == [fact]


def test_an_announcement_alone_is_no_memory(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ask("我是新员工 有个问题", user="ann", conversation="c")
    a.ask("我想问个问题", user="ann", conversation="c")
    assert [m.content for m in a.list_memories("ann")] == ["用户是新员工"]


@pytest.mark.parametrize("turn", ["我的电脑有点问题", "我是理想问题专家", "我是问题管理岗的"])
def test_a_problem_or_a_job_is_not_an_announcement(turn):
    assert split_turn(turn).statement in ("", turn) and about_conversation(turn) is None


@pytest.mark.parametrize("clause", ["有点问题", "有问题"])
def test_something_wrong_is_not_an_announcement(clause):
    assert about_conversation(clause) is None


@pytest.mark.parametrize("turn", ["我 有个问题", "我 想问个问题"])
def test_a_bare_pronoun_before_an_announcement_is_no_statement(turn):
    assert split_turn(turn).statement == ""


def test_a_countless_question_one_wants_to_ask_is_talk():
    assert split_turn("我是新员工，有问题想问").statement == "我是新员工"
    assert [f.content for f in rule_facts("我是新员工，有问题想问")] == ["用户是新员工"]
