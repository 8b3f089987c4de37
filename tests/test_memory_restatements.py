"""Two different facts are never merged because one names no noun; a restated fact is current again; the
acknowledgement repeats what the person said, not the text of an older row it strengthened (real e5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fakes import fake_assistant
from memory_support import NOW, make_store

from rag_core.memory.text import same_fact_terms

U = "u1"


@pytest.fixture()
def store(tmp_path):
    s = make_store(tmp_path)
    yield s
    s.close()


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("用户老婆怀孕了", "用户下个月结婚", False),  # 用户下个月结婚 names no noun: its empty key terms matched anything
        ("用户下个月要休产假", "用户下个月结婚", False),
        ("用户在试用期", "用户刚入职", False),
        ("用户下个月结婚", "用户下周结婚", False),  # another date is another fact; both kept, the person may delete one
        ("用户刚入职", "用户刚刚入职", True),  # a paraphrase without a noun is still one fact
        ("用户下个月结婚", "用户下个月要结婚", True),
    ],
)
def test_a_fact_without_a_noun_is_told_apart_by_its_verbs(a: str, b: str, same: bool) -> None:
    assert same_fact_terms(a, b) is same


@pytest.mark.parametrize(("first", "second"), [("我老婆怀孕了", "我下个月结婚"), ("我下个月要休产假", "我下个月结婚"),
                                               ("我在试用期", "我刚入职")])
def test_distinct_facts_the_embedding_blurs_are_both_kept(store, first: str, second: str) -> None:
    store.write_back(U, first, "", now=NOW)
    results = store.told_facts(U, second, "", now=NOW + timedelta(minutes=1))
    assert [action for _, action, _ in results] == ["added"]
    assert store.count(U) == 2


def test_a_restated_fact_is_fresh_again_and_a_recall_is_not_a_restatement(store) -> None:
    mid, _ = store.add(U, "用户常驻杭州", created_at=NOW - timedelta(days=90), now=NOW - timedelta(days=90))
    store.search(U, "我出差住宿标准多少？", now=NOW)  # a recall touches last_accessed only
    assert store.get(mid).created_at == (NOW - timedelta(days=90)).isoformat(timespec="seconds")
    assert store.write_back(U, "我常驻杭州", "", now=NOW) == [(mid, "strengthened")]
    assert store.get(mid).created_at == NOW.isoformat(timespec="seconds")
    assert [h["action"] for h in store.history(U, mid)] == ["added", "strengthened"]  # when it was first told stays
    assert any(m.id == mid for m in store.search(U, "我出差住宿标准多少？", now=NOW + timedelta(minutes=1)))


def test_the_acknowledgement_repeats_what_was_said(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    assistant._memory = make_store(tmp_path)  # the real embedder, so the restatement is a near-duplicate
    assistant.remember(U, "用户对花生过敏,推荐食物时必须避开")
    told = assistant.ask("我对花生过敏", user=U, conversation="c1")
    assert [m["content"] for m in told.acknowledged] == ["用户对花生过敏"]
    assert "您对花生过敏。" in told.answer and "推荐食物" not in told.answer
    assistant.ask("我老婆怀孕了", user=U, conversation="c1")
    told = assistant.ask("我下个月结婚", user=U, conversation="c1")
    assert "您下个月结婚" in told.answer and "怀孕" not in told.answer
    assert {m.content for m in assistant.list_memories(U)} >= {"用户老婆怀孕了", "用户下个月结婚"}
