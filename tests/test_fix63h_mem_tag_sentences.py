"""Review rev-own4a (memory) T1, T2: a tag question asks only the sentence carrying it, so a statement in a sentence
of its own before it is told as in any turn; a tag after nothing but talk (好的，是吧 / 我知道了，对吧) is chatter."""

from __future__ import annotations

import pytest

from rag_core.conversations.statements import split_turn
from rag_core.text.discourse import about_conversation, acknowledges, asks_back
from rag_core.types import Principal
from tests.fakes import fake_assistant_with_samples

LINA = Principal("lina", "employee")


@pytest.mark.parametrize(("text", "told", "asked"), [
    ("我常驻杭州。出差住宿标准是500元，对吧？", "我常驻杭州", "出差住宿标准是500元，对吧？"),
    ("我下个月结婚。婚假是3天，对吧？", "我下个月结婚", "婚假是3天，对吧？"),
    ("我是新员工！试用期是3个月，是不是？", "我是新员工", "试用期是3个月，是不是？"),
    ("好的。年假是5天，对吧？", "", "年假是5天，对吧？"),
])
def test_the_sentences_before_a_tag_question_are_split_as_any_turn(text, told, asked):
    parts = split_turn(text)
    assert (parts.statement, parts.question, parts.chatter) == (told, asked, False), parts


@pytest.mark.parametrize("text", ["我在研发部，加班可以调休，对吧？", "我可以报销头等舱，是吧？",
                                  "我常驻杭州。对吧？", "年假几天？我是经理，对吧？"])
def test_the_sentence_with_the_tag_tells_nothing(text):
    """Its own clauses (and the sentence a bare tag follows) are what it asks whether they hold."""
    parts = split_turn(text)
    assert parts.statement == "" and parts.question == text, parts


def test_a_statement_before_a_tag_question_is_remembered(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    trace = a.ask("我常驻杭州。出差住宿标准是500元，对吧？", user="lina", actor=LINA, conversation="c1")
    assert [m.content for m in a.list_memories("lina")] == ["用户常驻杭州"]
    assert trace.search_question and "常驻" not in trace.search_question


@pytest.mark.parametrize("text", ["好的，是吧", "嗯，是吧", "谢谢，是吗", "我知道了，对吧", "我明白了，是这样吧。",
                                  "好的。我知道了，对吧？"])
def test_a_tag_after_talk_is_chatter(text):
    assert not asks_back(text)
    assert split_turn(text).chatter, split_turn(text)


def test_an_acknowledgement_with_a_tag_is_an_acknowledgement():
    assert acknowledges("好的，是吧") and about_conversation("嗯，是吧") == ""


@pytest.mark.parametrize("text", ["对吧？", "是吧", "我知道年假是5天，对吧？", "我是说婚假，对吧？"])
def test_a_tag_alone_or_after_anything_else_still_asks(text):
    parts = split_turn(text)
    assert not parts.chatter and parts.question == text, parts


def test_a_tag_after_talk_is_not_searched_nor_remembered(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    trace = a.ask("我知道了，对吧", user="lina", actor=LINA, conversation="c1")
    assert not trace.search_question and not trace.search.hits
    assert a.list_memories("lina") == []
