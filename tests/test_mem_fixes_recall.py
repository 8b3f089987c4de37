"""Recall for a question about the asker: the lift of profile facts selects, the question's own relevance ranks."""

from __future__ import annotations

from datetime import timedelta

from memory_support import NOW, make_store


def test_the_relevant_fact_beats_newer_unrelated_ones(tmp_path):
    store = make_store(tmp_path)
    facts = ["用户常驻杭州", "用户对花生过敏", "用户刚入职", "用户家孩子3岁了", "用户怀孕了"]
    for i, fact in enumerate(facts):
        store.add("u", fact, created_at=NOW - timedelta(days=len(facts) - i), now=NOW)
    hits = store.search("u", "我出差住宿标准是多少？", now=NOW, touch=False)
    assert hits[0].content == "用户常驻杭州", [(h.content, h.relevance, h.score) for h in hits]
    hits = store.search("u", "我能请几天产检假", now=NOW, touch=False)
    assert hits[0].content == "用户怀孕了", [(h.content, h.relevance, h.score) for h in hits]
