"""Write-back, dedup, contradiction replacement, deletion, expiry, purge and the audit trail."""

from __future__ import annotations

import threading
from datetime import timedelta

import numpy as np
import pytest
from memory_support import NOW, e5, make_store

from rag_core.errors import MemoryStoreError
from rag_core.memory import MemoryStore

U = "wangwu"


@pytest.fixture
def store(tmp_path):
    s = make_store(tmp_path)
    yield s
    s.close()


def test_near_duplicate_strengthens_instead_of_adding(store):
    mid, action = store.add(U, "用户对花生过敏,推荐食物时必须避开", importance=0.9, now=NOW)
    assert action == "added"
    later = NOW + timedelta(days=1)
    results = store.write_back(U, "我对花生过敏，公司体检能不能跳过过敏原测试？", "……", now=later)
    assert results[0] == (mid, "strengthened")
    rec = store.get(mid)
    assert rec.importance == pytest.approx(0.95) and rec.last_accessed == later.isoformat(timespec="seconds")
    assert store.add(U, "用户在研发部工作", now=NOW)[1] == "added"
    assert store.add(U, "用户在研发部上班", now=NOW)[1] == "strengthened"  # same slot value
    assert store.add(U, "用户对芒果过敏", now=NOW)[1] == "added"  # similar sentence, different fact
    assert store.count(U) == 3  # allergy, department, mango: the question itself is no memory
    actions = [h["action"] for h in store.history(U, mid)]
    assert actions == ["added", "strengthened"]


def test_strengthening_is_capped_and_a_question_writes_nothing(store):
    mid, _ = store.add(U, "用户喜欢表格形式的回答", kind="preference", importance=0.98, now=NOW)
    store.add(U, "用户喜欢表格形式的回答", kind="preference", now=NOW)
    assert store.get(mid).importance == 1.0
    assert store.write_back(U, "年假有几天？", "5 天", now=NOW) == []  # seed 000's fourth trap: no echoes
    assert store.count(U) == 1


def test_contradiction_replaces_the_old_fact_and_keeps_it_in_history(store):
    old_id, _ = store.add(U, "用户在研发部工作", importance=0.6, now=NOW)
    later = NOW + timedelta(days=3)
    results = store.write_back(U, "我调到了销售部，销售提成怎么算？", "……", now=later)
    new_id, action = results[0]
    assert action == "replaced" and store.get(new_id).content == "用户在销售部工作"
    old = store.get(old_id)
    assert old.deleted_at == later.isoformat(timespec="seconds")
    assert (old.delete_reason, old.replaced_by) == ("replaced", new_id)
    assert [h.content for h in store.list(U, now=later, kind="profile")] == ["用户在销售部工作"]
    assert "用户在研发部工作" in [h.content for h in store.list(U, now=later, include_deleted=True)]
    assert any(h["action"] == "replaced" and h["memory_id"] == old_id for h in store.history(U))
    hits = store.search(U, "我们部门的提成政策是什么", now=later, threshold=0.0, top_k=10)
    assert old_id not in [h.id for h in hits]


def test_a_contradicted_memory_that_says_more_keeps_the_rest_until_undone(store):
    """Review 341 #2: the contradicted clause goes, the manager stays (it was taken away whole, in history only);
    undoing the telling gives the row its whole text back."""
    old_id, _ = store.add(U, "用户王五是研发部员工,直属主管是李四", importance=0.6, now=NOW)
    later = NOW + timedelta(days=3)
    new_id, action = store.write_back(U, "我调到了销售部，销售提成怎么算？", "……", now=later)[0]
    assert action == "trimmed"
    assert sorted(h.content for h in store.list(U, now=later, kind="profile")) == ["用户在销售部工作", "用户直属主管是李四"]
    assert store.get(old_id).deleted_at is None
    hits = store.search(U, "我的主管是谁", now=later, threshold=0.0, top_k=10)
    assert old_id in [h.id for h in hits]  # its vector is read again for the text it keeps
    store.undo([new_id], user_id=U, now=later)
    assert [h.content for h in store.list(U, now=later, kind="profile")] == ["用户王五是研发部员工,直属主管是李四"]


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        ("我常驻杭州", "我常驻上海", "用户常驻上海"),
        ("我的主管是李四", "我的主管是王芳", "用户的直属主管是王芳"),
        ("我在研发部工作", "我调到了销售部", "用户在销售部工作"),
    ],
)
def test_write_back_slots_replace(store, first, second, kept):
    store.write_back(U, first, "", now=NOW)
    store.write_back(U, second, "", now=NOW + timedelta(minutes=1))
    facts = [h.content for h in store.list(U, now=NOW) if h.kind == "profile"]
    assert facts == [kept]


def test_write_back_with_llm_and_rules(store):
    class LLM:
        def complete(self, prompt):
            return '{"content": "用户常驻深圳", "kind": "profile"}\n垃圾行'

    results = store.write_back(U, "深圳出差住宿标准是多少？", "……", now=NOW, llm=LLM())
    contents = [store.get(mid).content for mid, _ in results]
    assert contents == ["用户常驻深圳"]  # the question is no memory: the conversation keeps it
    assert store.get(results[0][0]).source.startswith("llm:")
    assert store.write_back(U, "   ", "", now=NOW) == []


def test_deleted_memory_is_never_recalled_and_is_audited(store):
    mid, _ = store.add(U, "用户对花生过敏,推荐食物时必须避开", importance=0.9, now=NOW)
    assert store.search(U, "推荐个零食", now=NOW)[0].id == mid
    assert store.delete([mid], now=NOW) == 1
    assert store.delete([mid], now=NOW) == 0  # already gone
    for th in (None, 0.0):
        assert mid not in [h.id for h in store.search(U, "推荐个零食", now=NOW, threshold=th, top_k=10)]
    rec = store.get(mid)
    assert rec.deleted and rec.delete_reason == "用户删除" and rec.deleted_at == NOW.isoformat(timespec="seconds")
    assert store.add(U, "用户对花生过敏,推荐食物时必须避开", now=NOW)[1] == "added"  # a deleted row is not revived
    store.retention_days = 30
    assert store.purge_deleted(now=NOW + timedelta(days=29)) == 0
    assert store.get(mid) is not None
    assert store.purge_deleted(now=NOW + timedelta(days=31)) == 1
    assert store.get(mid) is None and store.history(U, mid) == []


def test_forget_is_soft_with_a_reason(store):
    ids = [store.add(U, f"用户第 {i} 次闲聊：天气{i}", kind="episode", importance=0.1 + i / 100, now=NOW)[0] for i in range(5)]
    assert store.forget(3, user_id=U, now=NOW) == 2
    gone = [store.get(i) for i in ids[:2]]
    assert all(r.delete_reason == "forgotten" and r.deleted for r in gone)
    assert store.forget(3, user_id=U, now=NOW) == 0
    with pytest.raises(MemoryStoreError):
        store.forget(-1, now=NOW)


def test_forget_without_user_keeps_n_per_user(store):
    for u in ("a", "b"):
        for i in range(4):
            store.add(u, f"用户的第 {i} 条记录 {u}", kind="episode", now=NOW)
    assert store.forget(2, now=NOW) == 4
    assert store.count("a") == 2 and store.count("b") == 2


def test_expiry_drops_old_low_importance_echoes_only(tmp_path):
    store = make_store(tmp_path, interaction_ttl_days=14)
    old_echo, _ = store.add(U, "用户问过：年假有几天？", kind="interaction", now=NOW - timedelta(days=20))
    new_echo, _ = store.add(U, "用户问过：病假怎么请？", kind="interaction", now=NOW - timedelta(days=5))
    old_fact, _ = store.add(U, "用户常驻杭州", now=NOW - timedelta(days=20))
    vip_echo, _ = store.add(U, "用户问过：产假有几天？", kind="interaction", importance=0.5, now=NOW - timedelta(days=20))
    assert store.expire(now=NOW) == 1
    assert store.get(old_echo).delete_reason == "expired"
    assert not any(store.get(i).deleted for i in (new_echo, old_fact, vip_echo))
    store.interaction_ttl_days = None
    assert store.expire(now=NOW + timedelta(days=365)) == 0


def test_purge_user_removes_everything_of_that_user_only(store):
    a, _ = store.add("a", "用户常驻杭州", now=NOW)
    store.add("a", "用户常驻上海", now=NOW)  # replaces: one active, one soft-deleted
    store.delete([a], now=NOW)
    b, _ = store.add("b", "用户常驻杭州", now=NOW)
    assert store.purge_user("a") == 2
    assert store.count("a", include_deleted=True) == 0 and store.history("a") == []
    assert store.get(b) is not None and store.count("b") == 1


def test_update_importance_and_validation(store):
    mid, _ = store.add(U, "用户常驻杭州", now=NOW)
    store.update_importance(mid, 0.3)
    assert store.get(mid).importance == pytest.approx(0.3)
    assert store.history(U, mid)[-1]["action"] == "importance"
    for bad in (-0.1, 1.5, "x"):
        with pytest.raises(MemoryStoreError):
            store.update_importance(mid, bad)
    with pytest.raises(MemoryStoreError):
        store.update_importance("no-such-id", 0.5)
    with pytest.raises(MemoryStoreError):
        store.add("", "内容", now=NOW)
    with pytest.raises(MemoryStoreError):
        store.add(U, "   ", now=NOW)
    with pytest.raises(MemoryStoreError):
        store.add(U, "内容", kind="gossip", now=NOW)
    with pytest.raises(MemoryStoreError):
        store.add(U, "内容", importance=2, now=NOW)


def test_survives_restart_and_keeps_centres(tmp_path):
    s1 = make_store(tmp_path)
    mid, _ = s1.add(U, "用户对花生过敏,推荐食物时必须避开", importance=0.9, now=NOW)
    s1.search(U, "推荐个零食", now=NOW)
    s1.close()
    s2 = make_store(tmp_path)
    assert s2.search(U, "推荐个零食", now=NOW)[0].id == mid
    assert s2._conn.execute("SELECT COUNT(*) FROM memory_centres").fetchone()[0] == 1
    assert s2._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    s2.close()


class _OtherModel:
    """A different embedding model: rows it wrote must be re-embedded for e5."""

    model_id = "other"
    dim = 8

    def embed_passages(self, texts):
        return np.ones((len(texts), 8), dtype=np.float32) / np.sqrt(8)

    def embed_query(self, text):
        return np.ones(8, dtype=np.float32) / np.sqrt(8)


def test_rows_from_another_model_are_re_embedded(tmp_path):
    old = MemoryStore(tmp_path / "memory.sqlite3", _OtherModel())
    old.add(U, "用户对花生过敏,推荐食物时必须避开", importance=0.9, now=NOW)
    old.close()
    store = make_store(tmp_path)
    assert store.search(U, "推荐个零食", now=NOW)[0].content.startswith("用户对花生过敏")
    assert store.get(store.list(U, now=NOW)[0].id).model_id == e5().model_id
    store.close()


def test_concurrent_writers_and_readers(store):
    errors: list[Exception] = []

    def work(user: str) -> None:
        try:
            for i in range(4):
                store.add(user, f"用户{user}的第 {i} 条备注", kind="episode", now=NOW)
                store.search(user, "备注", now=NOW)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"u{n}",)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [store.count(f"u{n}") for n in range(4)] == [4, 4, 4, 4]


def test_concurrent_restatements_of_one_fact_leave_one_row(store):
    barrier = threading.Barrier(4)
    actions: list[str] = []

    def work() -> None:
        barrier.wait()
        actions.append(store.add(U, "用户常驻杭州", now=NOW)[1])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(actions) == ["added", "strengthened", "strengthened", "strengthened"]
    assert store.count(U) == 1


def test_patched_vector_cache_matches_a_fresh_read(tmp_path):
    store = make_store(tmp_path)
    store.search(U, "出差", now=NOW)  # warm the cache, so the adds below patch it
    store.add(U, "用户王五是研发部员工,直属主管是李四", now=NOW)
    store.add(U, "用户常驻杭州", now=NOW, created_at=NOW - timedelta(days=40))
    store.add(U, "用户常驻杭州", now=NOW)  # strengthened
    store.write_back(U, "我调到了销售部，提成怎么算？", "", now=NOW)  # replaced + echo
    cached = store._vectors(U)
    fresh = make_store(tmp_path)._vectors(U)
    by_id = dict(zip(fresh.ids, range(len(fresh.ids)), strict=True))
    assert sorted(cached.ids) == sorted(fresh.ids)
    for i, mid in enumerate(cached.ids):
        j = by_id[mid]
        assert cached.importance[i] == pytest.approx(fresh.importance[j])
        assert cached.created_ts[i] == pytest.approx(fresh.created_ts[j])
        assert np.allclose(cached.centred[i], fresh.centred[j], atol=1e-6)
