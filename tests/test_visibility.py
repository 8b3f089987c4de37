"""Who sees what, and that the vector store searches only that.

The pure rule (`visible_versions`) is tested on plain records; the vector
store's audience partitions and its over-fetch for hidden versions against
real Chroma (embedded, or the `chroma run` server when CHROMA_HOST is set).
"""

from __future__ import annotations

import uuid
from datetime import date

import numpy as np
import pytest

from rag_core.search import vector_store
from rag_core.search.vector_store import ChromaVectorStore, VectorScope, doc_key
from rag_core.search.visibility import visible_versions
from rag_core.types import Chunk, DocumentInfo

TODAY = date(2026, 6, 1)


def _info(doc_id: str, version: int, audience=("all",), effective: str | None = None, chunks: int = 3,
          status: str = "current") -> DocumentInfo:
    return DocumentInfo(doc_id=doc_id, title=doc_id, source=f"{doc_id}.md", version=version, audience=audience,
                        chunk_count=chunks, ingested_at="2026-01-01T00:00:00", content_hash=f"h{doc_id}{version}",
                        effective_date=effective, status=status)


def test_newest_version_in_effect_per_document_for_the_role():
    live = [
        _info("leave", 1), _info("leave", 2, effective="2026-12-01", chunks=4),
        _info("pay", 1, audience=("hr",), chunks=5), _info("travel", 3),
    ]
    pending = [_info("travel", 4, chunks=2, status="pending")]
    staff = visible_versions(live, pending, TODAY, "all")
    assert staff.keys == {"leave@v1", "travel@v3"}
    assert not staff.everything
    # the HR partition is not searched at all; inside the searched one the scheduled and pending versions are dropped
    assert staff.scope.audiences == {("all",)}
    assert staff.scope.hidden_keys == {"leave@v2", "travel@v4"}
    assert staff.scope.hidden_chunks == 6
    assert staff.scope.hidden_audiences == {("all",)}

    hr = visible_versions(live, pending, TODAY, "hr")
    assert hr.keys == {"leave@v1", "pay@v1", "travel@v3"}
    assert hr.scope.audiences == {("all",), ("hr",)}

    later = visible_versions(live, [], date(2026, 12, 1), "hr")
    assert later.keys == {"leave@v2", "pay@v1", "travel@v3"} and later.scope.hidden_keys == {"leave@v1"}


def test_a_scheduled_version_for_a_narrower_audience_retires_the_old_one_for_everyone_on_its_day():
    """As an immediate upload does: the old text must not keep answering those who cannot read the new version
    (helper-31 A2: the version in effect was chosen among the readable ones, so staff kept getting v1)."""
    live = [_info("bonus", 1), _info("bonus", 2, audience=("managers",), effective="2026-12-01")]
    before = visible_versions(live, [], TODAY, "all")
    assert before.keys == {"bonus@v1"}
    on_the_day = date(2026, 12, 1)
    staff = visible_versions(live, [], on_the_day, "all")
    assert staff.keys == set() and "bonus@v1" in staff.scope.hidden_keys
    assert visible_versions(live, [], on_the_day, "managers").keys == {"bonus@v2"}


def test_a_document_for_everyone_and_hr_is_read_by_every_role_from_its_own_partition():
    live = [_info("leave", 1), _info("bonus", 1, audience=("all", "hr"))]
    for role in ("all", "hr", "managers"):
        v = visible_versions(live, [], TODAY, role)
        assert "bonus@v1" in v.keys and ("all", "hr") in v.scope.audiences


def test_everything_visible_only_when_no_version_is_held_back():
    live = [_info("leave", 1), _info("pay", 1, audience=("hr", "managers"))]
    assert visible_versions(live, [], TODAY, "hr").everything
    assert visible_versions(live, [], TODAY, "managers").everything
    assert not visible_versions(live, [], TODAY, "all").everything
    assert not visible_versions(live + [_info("leave", 2, effective="2099-01-01")], [], TODAY, "hr").everything


def test_keyword_view_follows_additions_and_removals(tmp_path):
    from rag_core.documents.catalog import Catalog
    from rag_core.search.keyword_index import KeywordIndex
    from rag_core.search.visibility import Visible

    keywords = KeywordIndex(Catalog(tmp_path / "catalog.sqlite3"))
    keywords.add([("a@v1#0", ["年假", "天数"]), ("a@v1#1", ["年假"]), ("b@v1#0", ["加班"])])

    def only(*keys: str) -> Visible:
        return Visible(active=(), keys=frozenset(keys), everything=False, scope=VectorScope())

    view = keywords.view(only("a@v1"))
    assert view.allowed == {"a@v1#0", "a@v1#1"} and view.n_docs == 2 and view.total_len == 3
    assert keywords.view(only("a@v1", "b@v1")).allowed is None  # every chunk: no filter at all
    keywords.add([("a@v1#2", ["年假", "工龄", "天数"])])
    assert keywords.view(only("a@v1")).allowed == {"a@v1#0", "a@v1#1", "a@v1#2"}
    keywords.remove(["a@v1#0", "b@v1#0"])
    assert keywords.view(only("a@v1")).allowed is None  # document a is all that is left
    assert keywords.view(only("b@v1")).allowed == frozenset() and keywords.score(["加班"], only("b@v1")) == {}


def test_a_document_indexed_after_the_visibility_snapshot_stays_out(tmp_path):
    """The snapshot said "everything is visible"; an HR document indexed since must not be scored."""
    from rag_core.documents.catalog import Catalog
    from rag_core.search.keyword_index import KeywordIndex
    from rag_core.search.visibility import Visible

    keywords = KeywordIndex(Catalog(tmp_path / "catalog.sqlite3"))
    keywords.add([("pub@v1#0", ["补充", "医疗"])])
    snapshot = Visible(active=(), keys=frozenset({"pub@v1"}), everything=True, scope=VectorScope())
    assert keywords.view(snapshot).allowed is None
    keywords.add([("secret@v1#0", ["补充", "医疗", "高管"])])  # another thread's ingest
    assert set(keywords.score(["补充", "医疗"], snapshot)) == {"pub@v1#0"}
    assert keywords.doc_freq("高管", snapshot) == 0


# -- the vector store ----------------------------------------------------------------------------------
DIM = 16


def _store(tmp_path) -> ChromaVectorStore:
    from rag_core.settings import Settings

    s = Settings.from_env(data_dir=tmp_path, env_file=None)
    return ChromaVectorStore(path=s.path("chroma"), host=s.chroma_host, port=s.chroma_port, model_id="test",
                             name=f"policy_chunks_t{uuid.uuid4().hex[:10]}")


def _chunks(doc_id: str, version: int, n: int, audience=("all",)) -> list[Chunk]:
    return [Chunk(chunk_id=f"{doc_id}@v{version}#{i}", doc_id=doc_id, version=version, index=i, text=f"{doc_id} {i}",
                  source=f"{doc_id}.md", title=doc_id, section="", audience=audience) for i in range(n)]


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.mark.integration
def test_a_role_never_searches_another_audiences_partition(tmp_path, monkeypatch):
    store = _store(tmp_path)
    rng = np.random.default_rng(1)
    query = _unit(rng.normal(size=(1, DIM)))[0]
    staff, secret = _chunks("staff", 1, 8), _chunks("secret", 1, 1, audience=("hr",))
    store.upsert(staff, _unit(rng.normal(size=(8, DIM))))
    store.upsert(secret, query[None, :])  # the HR chunk is the exact match
    assert sorted(store.audiences) == [("all",), ("hr",)]

    hr_scope = VectorScope(audiences=frozenset({("all",), ("hr",)}))
    assert store.query(query, 3, hr_scope)[0].chunk_id == "secret@v1#0"

    def refuse(*args, **kwargs):
        raise AssertionError("the HR partition was searched for an employee")

    monkeypatch.setattr(store._partitions[("hr",)], "query", refuse)
    got = store.query(query, 3, VectorScope(audiences=frozenset({("all",)})))
    assert len(got) == 3 and all(m.chunk_id.startswith("staff@") for m in got)
    # a reader who may see no partition at all (no live document for them) is answered from none
    monkeypatch.setattr(store._partitions[("all",)], "query", refuse)
    assert store.query(query, 3, VectorScope(audiences=frozenset())) == []


@pytest.mark.integration
@pytest.mark.parametrize("overfetch_limit", [vector_store.MAX_OVERFETCH, 0])
def test_hidden_versions_are_dropped_and_the_top_n_stays_exact(tmp_path, monkeypatch, overfetch_limit):
    """Over-fetching by the hidden chunk count (or, past the limit, a where filter) = exact filtered top n."""
    monkeypatch.setattr(vector_store, "MAX_OVERFETCH", overfetch_limit)
    store = _store(tmp_path)
    rng = np.random.default_rng(2)
    query = _unit(rng.normal(size=(1, DIM)))[0]
    chunks, vectors = [], []
    for d in range(12):
        cs = _chunks(f"d{d}", 1, 10)
        vs = rng.normal(size=(10, DIM))
        if d < 3:  # the hidden versions hold the nearest chunks of all
            vs = vs * 0.05 + query
        chunks += cs
        vectors.append(_unit(vs))
    matrix = np.vstack(vectors)
    store.upsert(chunks, matrix)
    hidden = frozenset(doc_key(f"d{d}", 1) for d in range(3))
    scope = VectorScope(audiences=frozenset({("all",)}), hidden_keys=hidden, hidden_chunks=30)
    got = [m.chunk_id for m in store.query(query, 10, scope)]

    cos = matrix @ query
    order = [chunks[i].chunk_id for i in np.argsort(-cos) if not chunks[i].chunk_id.startswith(("d0@", "d1@", "d2@"))]
    assert got == order[:10]
    assert not any(cid.split("@")[0] in {"d0", "d1", "d2"} for cid in got)


@pytest.mark.integration
def test_a_store_in_the_old_single_collection_layout_is_rebuilt(store_copy):
    from tests.conftest import open_assistant

    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 高管补充。高管补充医疗额度为每年五万元。\n".encode(), "exec.txt", audience=["hr"])
    part = a.vectors._partitions[("hr",)]
    moved = part.get(include=["embeddings", "metadatas"])
    # put the HR chunk back where the previous version of the code kept it: in the base collection
    a.vectors._collection.upsert(ids=moved["ids"], embeddings=moved["embeddings"], metadatas=moved["metadatas"])
    a.vectors.client.delete_collection(part.name)
    a.catalog.set_meta("vector_layout", "")
    a.catalog.close()

    b = open_assistant(store_copy)
    assert b.catalog.get_meta("vector_layout") == vector_store.LAYOUT
    assert not set(moved["ids"]) & set(b.vectors._collection.get(include=[])["ids"])
    assert set(moved["ids"]) <= set(b.vectors._partitions[("hr",)].get(include=[])["ids"])
    staff = b.search("高管补充医疗额度是多少？", role="all")
    assert all(h.chunk.doc_id != "exec" for h in staff.hits + staff.near_misses)
    assert any(h.chunk.doc_id == "exec" for h in b.search("高管补充医疗额度是多少？", role="hr").hits)


@pytest.mark.integration
def test_a_version_that_appeared_after_the_snapshot_is_not_returned_by_either_index(store_copy, monkeypatch):
    from tests.conftest import open_assistant

    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 星光条款。星光补贴每月 100 元。\n".encode(), "star.txt")
    stale = a.retriever.visible("all")
    a.ingest_bytes("第一条 星光条款。星光补贴每月 999 元。\n".encode(), "star.txt", effective_date="2999-01-01")
    monkeypatch.setattr(a.retriever, "visible", lambda role="all", today=None: stale)
    res = a.search("星光补贴每月多少？")
    shown = [h.chunk.chunk_id for h in res.hits + res.near_misses]
    assert "star@v1#0" in shown and not [c for c in shown if c.startswith("star@v2")]


@pytest.mark.integration
def test_deleting_an_hr_document_empties_its_partition_also_after_restart(store_copy):
    from tests.conftest import open_assistant

    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 高管补充。高管补充医疗额度为每年五万元。\n".encode(), "exec.txt", audience=["hr"])
    assert any(i.startswith("exec@") for i in a.vectors._partitions[("hr",)].get(include=[])["ids"])
    a.delete_document("exec")
    a.catalog.close()
    b = open_assistant(store_copy)
    assert not [i for i in b.vectors.ids() if i.startswith("exec@")]
    assert not any(h.chunk.doc_id == "exec" for h in b.search("高管补充医疗额度是多少？", role="hr").hits)


def test_the_documents_page_agrees_with_search_on_the_version_in_effect(tmp_path):
    """After a scheduled version for managers took effect, HR's 文档管理 still listed and previewed the old version
    for everyone, which search no longer reads (helper-38 5)."""
    from fakes import fake_assistant

    from rag_core.types import Principal

    admin, hr = Principal("boss", "admin"), Principal("hr_li", "hr")
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes("# 奖金\n\n第一条 年终奖为年薪的百分之四十。\n".encode(), "奖金.md", actor=admin).ok
    assert a.ingest_bytes("# 奖金\n\n第一条 年终奖为年薪的百分之三十。\n".encode(), "奖金.md", audience=("managers",),
                          effective_date="2099-01-01", actor=admin).ok
    with a.catalog.transaction() as db:  # the scheduled day has come
        db.execute("UPDATE documents SET effective_date='2000-01-01' WHERE version=2")
    a.retriever.visibility._cache.clear()
    assert a.retriever.visible("hr").keys == frozenset()
    assert a.list_documents(actor=hr) == [] and a.document_chunks("奖金", actor=hr) == []
    assert [(d.version, d.status) for d in a.list_documents(actor=admin)] == [(2, "current")]
