"""A request without a question word (我想请假, 帮我看看…) is searched, and never remembered as a fact."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.statements import split_turn


def memories(a) -> list[str]:
    return [m.content for m in a.list_memories("local")]


@pytest.mark.parametrize("text", ["我想请假", "我要报销打车费", "我需要开收入证明", "请帮我查一下年假"])
def test_a_request_is_searched_not_remembered(tmp_path, text):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask(text, conversation="c1")
    assert trace.search.query and not trace.acknowledged, trace.answer
    assert memories(a) == []


def test_a_statement_before_a_request_is_remembered_and_the_request_searched(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask("我是HR，帮我看看这个员工的年假", conversation="c1")
    assert trace.search.query
    assert memories(a) == ["用户是HR"]


@pytest.mark.parametrize("text", ["我要当爸爸了", "我打算在老家买房", "我老婆没工作，我下个月要当爸爸了", "我想要用表格回答"])
def test_statements_that_say_want_or_will_stay_statements(text):
    assert split_turn(text).is_statement_only
