"""A supposition (如果我是经理…) is part of a question, never a fact about the person."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.statements import split_turn
from rag_core.memory.extraction import Fact, rule_facts


@pytest.mark.parametrize("text", ["如果我是经理，住宿标准多少", "假如我在研发部，加班费怎么算", "要是我常驻北京，住宿标准多少",
                                  "我是经理的话，住宿标准多少", "假设我调到了销售部，提成怎么算"])
def test_a_supposition_is_no_fact(text):
    assert rule_facts(text) == []


def test_a_fact_before_a_supposition_is_kept():
    assert rule_facts("我在财务部，假如我调到上海，住宿标准多少") == [Fact("用户在财务部工作", "profile")]
    assert split_turn("如果我是经理，住宿标准多少").statement == ""


def test_a_hypothetical_question_stores_nothing(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask("如果我是经理，住宿标准多少", conversation="c1")
    assert trace.search.query and not trace.acknowledged
    assert [m.content for m in a.list_memories("local")] == []
