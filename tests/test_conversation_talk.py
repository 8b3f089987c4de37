"""Words about the conversation are neither remembered nor searched as they stand.

An acknowledgement (好的, 谢谢) or a clause whose verb is one of speaking or understanding (我知道了, 我不明白,
我不同意这个答案) says nothing about the person: no memory (seed 000's fourth trap), and no search — a short
reply, and the next question goes on from the one before it. A clarification (我是说休息日加班, 不对，我问的是婚假)
is searched as the question it corrects, with what was meant in place of what it corrects.
"""

from __future__ import annotations

import pytest
from conftest import open_assistant
from fakes import fake_assistant_with_samples

from rag_core.conversations.followup import CLARIFIES, clarify
from rag_core.conversations.statements import CHATTER_REPLY, split_turn
from rag_core.memory.extraction import rule_facts
from rag_core.types import ACKNOWLEDGED

CHATTER = ["好的", "嗯嗯", "谢谢", "知道了", "好的，我知道了", "我不明白", "我刚才问错了", "我不同意这个答案",
           "我还是不太懂你的意思", "好的谢谢！"]
CLARIFICATIONS = [("我是说休息日加班", "休息日加班"), ("不对，我问的是婚假", "婚假"), ("我的意思是病假", "病假"),
                  ("我是想问年假", "年假"), ("我指的是二线城市", "二线城市")]


@pytest.mark.parametrize("said", CHATTER + [said for said, _ in CLARIFICATIONS])
def test_words_about_the_conversation_are_no_fact(said: str) -> None:
    assert rule_facts(said) == []


@pytest.mark.parametrize(("said", "kept"), [("我是讲师", ["用户是讲师"]), ("我是说明书编写员", ["用户是说明书编写员"]),
                                            ("我想辞职", ["用户想辞职"]), ("对了，我老婆下个月就要生了", ["用户老婆下个月就要生了"])])
def test_a_fact_whose_word_only_contains_a_speech_verb_is_still_a_fact(said: str, kept: list[str]) -> None:
    assert [f.content for f in rule_facts(said)] == kept


@pytest.mark.parametrize("said", CHATTER)
def test_chatter_is_neither_told_nor_asked(said: str) -> None:
    parts = split_turn(said)
    assert parts.chatter and not parts.statement and not parts.question, parts


@pytest.mark.parametrize(("said", "meant"), CLARIFICATIONS)
def test_a_clarification_asks_what_was_meant(said: str, meant: str) -> None:
    parts = split_turn(said)
    assert (parts.question, parts.clarifies, parts.statement, parts.chatter) == (meant, True, "", False)


def test_a_question_after_words_about_asking_is_just_that_question() -> None:
    parts = split_turn("我想问一下年假有几天")
    assert (parts.question, parts.clarifies) == ("年假有几天", False)
    parts = split_turn("好的，那病假呢？")
    assert (parts.question, parts.chatter) == ("那病假呢？", False)


@pytest.mark.parametrize("said", ["我明白了谢谢", "我知道了谢谢你", "我懂了谢谢", "我知道了哈"])
def test_thanks_after_an_understanding_verb_are_no_object(said: str) -> None:
    """我明白了谢谢 is talk: the thanks are no object of 明白 (helper-39 4)."""
    parts = split_turn(said)
    assert parts.chatter and rule_facts(said) == []


@pytest.mark.parametrize(("said", "asked"), [("我想了解一下报销流程", "报销流程"), ("我问一下加班费", "加班费")])
def test_asking_to_know_something_asks_it(said: str, asked: str) -> None:
    """我想了解一下报销流程 was stored as a fact about the person and searched nothing (helper-39 4)."""
    parts = split_turn(said)
    assert parts.question == asked and not parts.statement and rule_facts(said) == []


@pytest.mark.parametrize(("said", "question", "statement"), [
    ("我理解的是休息日加班按两倍算，对吗", "我理解的是休息日加班按两倍算，对吗", ""),
    ("我看到通知说年会放假，是真的吗", "我看到通知说年会放假，是真的吗", ""),
    ("我知道公司有年假，能休几天", "我知道公司有年假，能休几天", ""),
    ("我同意调岗了", "", "我同意调岗了"),
    ("我不同意公司的调岗安排", "", "我不同意公司的调岗安排"),
    ("我问过领导了，他同意我调休", "我问过领导了，他同意我调休", ""),  # memory keeps nothing of it: searched (review 52n2 #1)
    ("我看到这个月工资少了200，为什么", "我看到这个月工资少了200，为什么", ""),
])
def test_an_understanding_or_speech_verb_with_an_object_of_its_own_is_no_talk(said: str, question: str,
                                                                              statement: str) -> None:
    """Only a verb with no object, or the answer as its object (我知道了, 我不同意这个答案), is talk about the
    conversation; dropping the clause cut 我理解的是休息日加班按两倍算，对吗 down to 对吗 and lost 我同意调岗了
    (helper-38 2)."""
    parts = split_turn(said)
    assert (parts.question, parts.statement, parts.chatter) == (question, statement, False)


@pytest.mark.parametrize(("said", "asked"), [
    ("我不知道怎么请病假", "怎么请病假"), ("我不明白加班费怎么算", "加班费怎么算"), ("我不懂公积金怎么取", "公积金怎么取"),
    ("我想知道试用期多久", "试用期多久"), ("我不清楚离职要提前多久说", "离职要提前多久说"),
])
def test_a_question_embedded_after_an_understanding_verb_is_asked_not_dropped(said: str, asked: str) -> None:
    """我不知道怎么请病假 is a question about sick leave, not talk: dropping the clause left nothing to search."""
    parts = split_turn(said)
    assert (parts.question, parts.chatter, parts.clarifies) == (asked, False, False)
    assert rule_facts(said) == []


@pytest.mark.parametrize(
    ("meant", "previous", "expected", "tentative"),
    [("休息日加班", "加班有加班费吗", "休息日加班有加班费吗？", False), ("婚假", "年假有几天？", "婚假有几天？", False),
     ("二线城市", "出差住宿标准多少？", "二线城市出差住宿标准多少？", True)],
)
def test_what_was_meant_stands_in_for_what_it_corrects(meant: str, previous: str, expected: str, tentative: bool) -> None:
    rewrite = clarify(meant, previous)
    assert (rewrite.question, rewrite.reason, rewrite.tentative) == (expected, CLARIFIES, tentative)


@pytest.fixture()
def assistant(tmp_path):
    facade = fake_assistant_with_samples(tmp_path / "store")
    return facade


def test_an_acknowledgement_is_answered_without_search_and_the_next_question_goes_on(assistant) -> None:
    assistant.ask("加班费怎么算？", user="u1", conversation="c1")
    ack = assistant.ask("好的", user="u1", conversation="c1")
    assert (ack.outcome, ack.search_question, ack.answer, ack.search.hits) == (ACKNOWLEDGED, "", CHATTER_REPLY, [])
    after = assistant.ask("那周末呢？", user="u1", conversation="c1")
    assert after.search_question == "周末加班费怎么算？"
    assert assistant.list_memories("u1") == []


def test_chatter_leaves_no_memory_to_crowd_out_the_facts(assistant) -> None:
    for said in ["好的，我知道了", "我不明白", "我是说休息日加班", "不对，我问的是婚假", "我不同意这个答案"]:
        assistant.ask(said, user="u1", conversation="c2")
    assistant.ask("我常驻杭州", user="u1", conversation="c2")
    assert [m.content for m in assistant.list_memories("u1")] == ["用户常驻杭州"]


def test_a_clarification_is_searched_in_place_of_the_question_it_corrects(assistant) -> None:
    assistant.ask("年假有几天？", user="u1", conversation="c3")
    trace = assistant.ask("不对，我问的是婚假", user="u1", conversation="c3")
    assert trace.outcome != ACKNOWLEDGED and trace.search_question == "婚假有几天？"
    assert trace.search.hits and "婚假" in trace.search.hits[0].chunk.text


@pytest.mark.integration
def test_a_clarification_takes_the_glued_search_when_it_reads_more_answerable(store_copy) -> None:
    """Real e5: 二线城市 has no counterpart in 出差住宿标准多少, so the glued text is tentative; it reads more answerable
    (not by GLUE_MARGIN: the clarification says itself that it corrects the last question), so it is taken."""
    a = open_assistant(store_copy)
    a.ask("出差住宿标准多少？", user="u1", conversation="trip", remember=False)
    trace = a.ask("我是说二线城市", user="u1", conversation="trip", remember=False)
    assert trace.search_question == "二线城市出差住宿标准多少？", trace.followup
    a.ask("加班费怎么算？", user="u1", conversation="pay", remember=False)
    other = a.ask("我是想问年假", user="u1", conversation="pay", remember=False)  # a new topic: searched as meant
    assert other.search_question == "年假", other.followup


def test_the_reply_to_a_greeting_or_thanks_does_not_open_with_an_agreement():
    """好的 answered 你好 as if it were a request; the one reply fits a greeting and thanks alike."""
    assert not CHATTER_REPLY.startswith(("好的", "好，", "嗯")) and "问" in CHATTER_REPLY
