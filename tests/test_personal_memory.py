"""What a person says about themself is kept, whatever the wording, and used when they ask about themself.

A turn that asks nothing and opens with 我 is a statement; the clauses no pattern
knows are kept as said, in the third person. A question that speaks of the asker
(我…) recalls their profile facts even when the two share no words.
"""

from __future__ import annotations

import numpy as np
import pytest
from fakes import fake_assistant_with_samples

from rag_core.conversations.statements import split_turn
from rag_core.memory.extraction import rule_facts
from rag_core.memory.scoring import PERSONAL_RELEVANCE, personal_relevance
from rag_core.memory.text import grounded_in
from rag_core.text.asking import asks, opens_with_asker, third_person


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("我参加工作12年了", ["用户参加工作12年了"]),
        ("我今年58了，养老保险才交了12年", ["用户今年58了，养老保险才交了12年"]),
        ("我是销售部的普通员工，下周要去广州出差三天", ["用户是销售部的普通员工", "用户下周要去广州出差三天"]),
        ("我老婆没工作，我下个月要当爸爸了", ["用户老婆没工作，用户下个月要当爸爸了"]),
        ("我想辞职，要提前多久说", ["用户想辞职"]),
        ("年假有几天？", []),
        ("公司有班车吗", []),
    ],
)
def test_what_a_person_tells_is_kept_as_said(said: str, kept: list[str]) -> None:
    assert [fact.content for fact in rule_facts(said)] == kept


@pytest.mark.parametrize("said", ["我参加工作12年了", "对了，我老婆下个月就要生了", "我打算在老家买房"])
def test_a_turn_that_asks_nothing_and_opens_with_the_person_is_a_statement(said: str) -> None:
    parts = split_turn(said)
    assert parts.is_statement_only, parts


def test_the_shared_notions() -> None:
    assert asks("公司有班车吗") and asks("咋算") and not asks("我参加工作12年了")
    assert opens_with_asker("嗯，我在郑州上班") and not opens_with_asker("公司在郑州")
    assert third_person("我们厂三班倒") == "用户所在的厂三班倒"


def test_profile_facts_are_relevant_to_a_question_about_the_asker() -> None:
    rel = np.array([0.1, 0.1])
    lifted = personal_relevance(rel, ["profile", "episode"], personal=True)
    assert lifted.tolist() == [PERSONAL_RELEVANCE, 0.1]
    assert personal_relevance(rel, ["profile", "episode"], personal=False).tolist() == [0.1, 0.1]


def test_a_personal_question_uses_the_persons_statement(tmp_path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    told = assistant.ask("我参加工作12年了", user="u1", conversation="c1")
    assert [m["content"] for m in told.acknowledged] == ["用户参加工作12年了"]
    trace = assistant.ask("我一年能休几天年假", user="u1", conversation="c1")
    assert any("12年" in m.content for m in trace.memories), [m.content for m in trace.memories]
    other = assistant.ask("年假有几天", user="u1", conversation="c1")  # not about the asker: by relevance only
    assert all(m.relevance < PERSONAL_RELEVANCE for m in other.memories)


def test_profile_facts_the_sources_name_are_relevant_whoever_the_question_speaks_of() -> None:
    rel = np.array([0.1, 0.1, 0.1])
    kinds = ["profile", "profile", "episode"]
    lifted = personal_relevance(rel, kinds, personal=False, grounded=[True, False, True])
    assert lifted.tolist() == [PERSONAL_RELEVANCE, 0.1, 0.1]  # an episode is not lifted by its names


@pytest.mark.parametrize(
    ("fact", "sources", "grounded"),
    [
        ("用户是星辰科技的研发", "星辰科技员工手册 第五章 福利 公司为员工缴纳住房公积金", True),
        ("用户是星辰科技的研发", "心选生活入职手册 第三条 住房公积金按12%缴纳", False),
        ("用户常驻广州", "一类城市为北京、上海、广州、深圳", True),
        ("用户在FIRHQ做招聘", "FIRHQ人事财务制度 第三条 员工入职", True),  # a Latin name grounds like a noun
        ("用户对花生过敏", "年假 已满1年不满10年的，年休假5天", False),
        ("用户参加工作12年了", "试用期最长不超过12个月", False),  # a number grounds nothing
        ("用户常驻广州", "", False),
    ],
)
def test_a_fact_is_grounded_by_the_names_it_rests_on(fact: str, sources: str, grounded: bool) -> None:
    assert grounded_in(fact, sources) is grounded


def test_a_question_that_does_not_speak_of_the_asker_uses_the_fact_its_sources_name(tmp_path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("我常驻广州", user="u1", conversation="c1")
    trace = assistant.ask("一类城市包括哪些", user="u1", conversation="c1")
    assert "广州" in "".join(h.chunk.text for h in trace.search.hits), "the city table is a source"
    assert any("广州" in m.content for m in trace.memories), [m.content for m in trace.memories]
    unrelated = assistant.ask("婚假有几天", user="u1", conversation="c1")
    assert not any("广州" in m.content for m in unrelated.memories)


def test_a_question_leaves_no_memory(tmp_path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("年假有几天？", user="u1")
    assistant.ask("加班餐费怎么报？", user="u1")
    assert assistant.list_memories("u1") == []
