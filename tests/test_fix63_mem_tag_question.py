"""Review 63 (memory) #1: a yes/no tag question (…，对吧？ / 是吧？ / 对不对？) asks whether what it says holds. It
is searched as a whole, never taken as a statement: nothing remembered, no "好的，我记住了" that reads as agreement."""

from __future__ import annotations

import pytest

from rag_core.conversations.statements import split_turn
from rag_core.text.discourse import about_conversation, acknowledges
from rag_core.types import Principal
from tests.fakes import fake_assistant_with_samples

TAGGED = ["年假是5天，对吧？", "我的年假是30天，对吧？", "我出差住宿标准是一类城市500元，对不对？",
          "我可以报销头等舱，是吧？", "我在研发部，加班可以调休，对吧？", "我是经理，可以坐商务舱是不是", "婚假3天，对吗？"]


@pytest.mark.parametrize("text", TAGGED)
def test_a_tag_question_is_asked_whole_and_tells_nothing(text):
    parts = split_turn(text)
    assert parts.statement == "" and parts.question == text and not parts.chatter, parts


@pytest.mark.parametrize("clause", ["对吧？", "对不对？", "是吧", "是不是？", "对？", "是的？", "没错吧？"])
def test_a_tag_or_an_assent_asked_back_is_no_acknowledgement(clause):
    assert not acknowledges(clause)
    assert about_conversation(clause) is None


@pytest.mark.parametrize("text", ["好的", "对", "是的", "谢谢", "好的，谢谢", "嗯嗯", "在吗？", "？？？", "嗯？"])
def test_plain_acknowledgements_stay_chatter(text):
    assert split_turn(text).chatter, split_turn(text)


def test_a_tag_question_is_searched_and_nothing_is_remembered(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    lina = Principal("lina", "employee")
    for text in ("我可以报销头等舱，是吧？", "我在研发部，加班可以调休，对吧？"):
        trace = a.ask(text, user="lina", actor=lina, conversation="c1")
        assert trace.search_question and not trace.acknowledged, trace.answer
        assert "记住" not in trace.answer
    assert a.list_memories("lina", actor=lina) == []
