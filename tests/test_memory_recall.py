"""Recall with the real e5 embedder: seed 000 Checkpoint 1 and §3.4, isolation, settings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from memory_support import NOW, make_store

from rag_core.errors import MemoryStoreError

U = "zhangsan"
PYTHON = "用户张三是 Python 开发者,专注机器学习"
WEATHER = "用户说今天天气不错"
PEANUT = "用户对花生过敏,推荐食物时必须避开"
OLD = "用户去年提过想学 Python 爬虫"


@pytest.fixture
def checkpoint_store(tmp_path):
    """Seed 000 Checkpoint 1: four memories, one of them 400 days old."""
    store = make_store(tmp_path)
    store.add(U, PYTHON, importance=0.8, now=NOW)
    store.add(U, WEATHER, kind="episode", importance=0.1, now=NOW)
    store.add(U, PEANUT, importance=0.9, now=NOW)
    store.add(U, OLD, kind="episode", importance=0.8, created_at=NOW - timedelta(days=400), now=NOW)
    yield store
    store.close()


def test_checkpoint1_technology_question_recalls_the_python_developer_never_the_old_one(checkpoint_store):
    hits = checkpoint_store.search(U, "张三擅长什么技术?", now=NOW)
    assert hits and hits[0].content == PYTHON
    assert OLD not in [h.content for h in hits]
    old = next(h for h in checkpoint_store.list(U, now=NOW) if h.content == OLD)
    assert old.freshness < 1e-3  # 400 days at a 30-day half-life


def test_checkpoint1_snack_question_recalls_the_allergy_first(checkpoint_store):
    hits = checkpoint_store.search(U, "推荐个零食", now=NOW)
    assert hits and hits[0].content == PEANUT
    assert hits[0].score == pytest.approx(hits[0].relevance * hits[0].importance * hits[0].freshness, abs=1e-3)


def test_checkpoint1_unrelated_question_recalls_nothing(checkpoint_store):
    assert checkpoint_store.search(U, "报销单交给谁审批?", now=NOW) == []
    # ranking without the threshold would have returned all four: the threshold selects
    assert len(checkpoint_store.search(U, "报销单交给谁审批?", now=NOW, threshold=0.0, top_k=10)) == 4


def test_checkpoint1_forget_keeps_fifty_and_the_allergy(checkpoint_store):
    for i in range(60):
        checkpoint_store.add(U, f"闲聊第 {i} 条", kind="episode", importance=0.1, now=NOW)
    assert checkpoint_store.count(U) == 64
    preview = checkpoint_store.preview_forget(50, user_id=U, now=NOW)
    assert len(preview) == 14 and checkpoint_store.count(U) == 64  # preview changes nothing
    assert checkpoint_store.forget(50, user_id=U, now=NOW) == 14
    kept = [h.content for h in checkpoint_store.list(U, now=NOW)]
    assert len(kept) == 50
    assert PEANUT in kept and PYTHON in kept and OLD not in kept
    assert {h.id for h in preview} == {
        h.id for h in checkpoint_store.list(U, now=NOW, include_deleted=True) if h.content not in kept
    }


def test_section_3_4_echoes_never_outrank_real_facts(tmp_path, capsys):
    """Seed 000 §3.4: after four asked questions the user's facts are what is recalled: a question leaves no echo,
    and an interaction record stored by hand (importance 0.1) never outranks a fact."""
    store = make_store(tmp_path)
    u = "wangwu"
    store.add(u, "用户王五常驻杭州,经常出差去北京", importance=0.7, now=NOW)
    store.add(u, "用户王五是研发部员工,直属主管是李四", importance=0.6, now=NOW)
    demo = ["去北京出差住宿能报多少?", "报销单交上去多久能打款?", "加班餐费怎么报?", "年假有几天?"]
    for q in demo:
        assert store.write_back(u, q, "（回答）", now=NOW) == []  # questions carry no facts, and leave no echo
        store.add(u, f"用户问过：{q}", kind="interaction", now=NOW)  # as an older store kept them
    echoes = [h for h in store.list(u, now=NOW) if h.kind == "interaction"]
    assert len(echoes) == 4 and all(h.importance == pytest.approx(0.1) for h in echoes)

    for related in ["去北京出差住宿能报多少?", "下周去北京出差，酒店标准是多少？"]:
        ranking = store.list(u, now=NOW, query=related)
        with capsys.disabled():
            print(f"\n§3.4 ranking for {related}")
            for h in ranking:
                print(f"  {h.score:.3f}  rel={h.relevance:.2f} imp={h.importance:.1f}  {h.content}")
        facts = [h for h in ranking if h.kind != "interaction"]
        echo_scores = [h.score for h in ranking if h.kind == "interaction"]
        assert ranking[0].content.startswith("用户王五常驻杭州")
        assert facts[0].score > max(echo_scores)
        hits = store.search(u, related, now=NOW)
        assert hits and hits[0].content.startswith("用户王五常驻杭州")
        assert all(h.kind != "interaction" for h in hits)
    for q in demo:  # no echo is ever recalled into a prompt at the default threshold
        assert all(h.kind != "interaction" for h in store.search(u, q, now=NOW))


def test_another_user_sees_none_of_these_memories(checkpoint_store):
    other = "lisi"
    for q in ["张三擅长什么技术?", "推荐个零食"]:
        assert checkpoint_store.search(other, q, now=NOW, threshold=0.0) == []
    assert checkpoint_store.list(other, now=NOW, include_deleted=True) == []
    some_id = checkpoint_store.list(U, now=NOW)[0].id
    assert checkpoint_store.delete([some_id], user_id=other) == 0
    assert checkpoint_store.get(some_id, user_id=other) is None
    with pytest.raises(MemoryStoreError):
        checkpoint_store.update_importance(some_id, 0.0, user_id=other)
    assert checkpoint_store.forget(0, user_id=other, now=NOW) == 0
    assert checkpoint_store.count(U) == 4
    checkpoint_store.add(other, PEANUT, importance=0.9, now=NOW)  # same text, separate user: no dedup across users
    assert checkpoint_store.count(U) == 4 and checkpoint_store.count(other) == 1


def test_recall_touches_last_accessed_and_access_count(checkpoint_store):
    later = NOW + timedelta(hours=2)
    hit = checkpoint_store.search(U, "推荐个零食", now=later)[0]
    assert hit.access_count == 1 and hit.last_accessed == later.isoformat(timespec="seconds")
    checkpoint_store.search(U, "推荐个零食", now=later, touch=False)
    assert checkpoint_store.get(hit.id).access_count == 1
    checkpoint_store.search(U, "推荐个零食", now=later)
    assert checkpoint_store.get(hit.id).access_count == 2


def test_settings_apply_without_restart(checkpoint_store):
    assert checkpoint_store.search(U, "推荐个零食", now=NOW)
    checkpoint_store.threshold = 0.99
    assert checkpoint_store.search(U, "推荐个零食", now=NOW) == []
    checkpoint_store.threshold = 0.0
    checkpoint_store.top_k = 1
    assert len(checkpoint_store.search(U, "推荐个零食", now=NOW)) == 1
    checkpoint_store.half_life_days = 7.0
    later = checkpoint_store.list(U, now=NOW + timedelta(days=7))
    # a fact about the person does not go stale (`freshness_by_kind`); the rest halve in one half-life
    assert all(h.freshness == (1.0 if h.kind == "profile" else pytest.approx(0.5, abs=1e-3))
               for h in later if h.content != OLD)
    assert any(h.kind != "profile" for h in later if h.content != OLD)


def test_list_without_query_reports_relevance_one_sorted_by_retention(checkpoint_store):
    hits = checkpoint_store.list(U, now=NOW)
    assert [h.content for h in hits][:2] == [PEANUT, PYTHON]
    assert all(h.relevance == 1.0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert [h.content for h in checkpoint_store.list(U, now=NOW, kind="episode")] == [WEATHER, OLD]
