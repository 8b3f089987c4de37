"""Review 52k1 #2: a question put as a wish (我是想了解一下年假) or talk about the conversation (我有个问题,
我看不懂) is no fact about the person; what is asked is searched."""

from __future__ import annotations

import pytest

from rag_core.conversations.statements import split_turn
from rag_core.memory.extraction import rule_facts
from tests.fakes import fake_assistant_with_samples

ASKED = ["我是想了解一下年假", "我是来问年假的", "我想问问年假", "我是来咨询年假的", "我是想知道年假"]
TALK = ["我有个问题", "我看不懂", "我在问你年假的事", "我刚问的是年假", "我是随便问问", "我觉得你回答得不对",
        "我还有几个问题", "我听不懂"]


@pytest.mark.parametrize("text", ASKED)
def test_a_wish_to_know_is_a_question_about_its_object(text):
    parts = split_turn(text)
    assert not parts.statement and "年假" in parts.question, parts
    assert rule_facts(text) == []


@pytest.mark.parametrize("text", TALK)
def test_talk_about_the_conversation_is_no_statement(text):
    parts = split_turn(text)
    assert not parts.statement, parts
    assert rule_facts(text) == []


def test_a_fact_then_a_wish_keeps_the_fact_and_asks_the_rest():
    parts = split_turn("我是新员工，想问问年假")
    assert parts.statement == "我是新员工" and parts.question == "年假", parts
    assert [f.content for f in rule_facts("我是新员工，想问问年假")] == ["用户是新员工"]


@pytest.mark.parametrize("text", ["我问过HR了", "我了解过这个制度", "我知道这个规定", "我觉得年假太少"])
def test_no_fact_holds_a_verb_of_asking_or_knowing(text):
    assert rule_facts(text) == []


@pytest.mark.parametrize("text", ["我是讲师", "我同意调岗了", "我是法律顾问", "我在研发部工作"])
def test_facts_that_only_look_alike_are_kept(text):
    assert rule_facts(text)


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    a = fake_assistant_with_samples(tmp_path_factory.mktemp("talk") / "s")
    return a


@pytest.mark.parametrize("text", [*ASKED, *TALK, "我是新员工，想问问年假"])
def test_nothing_of_it_is_remembered_and_the_question_is_searched(assistant, text):
    user = f"u-{text}"
    trace = assistant.ask(text, user=user, conversation=f"c-{text}")
    contents = [m.content for m in assistant.list_memories(user)]
    assert all("问" not in c and "了解" not in c and "觉得" not in c and "懂" not in c for c in contents), contents
    if text in ASKED or "想问问" in text:
        assert "年假" in trace.search_question, trace.search_question
