"""Every vector written to Chroma can be found again by a query.

Chroma 1.5.9 sometimes leaves a record written after a query unreachable by
`query()` while `get()` and `count()` include it (3–8 of 40 trials for a
one-chunk document added to the sample store after a search, measured). The
store reads every write back and re-writes what a query cannot find. The
integration test replays that sequence with the real e5 vectors of the sample
store on real Chroma (embedded, or the server when CHROMA_HOST is set); the
unit tests pin the repair logic on a collection that loses writes on purpose.
"""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from rag_core.documents.prepare import index_text
from rag_core.search import vector_store
from rag_core.search.recent_writes import RecentWrites
from rag_core.search.vector_store import ChromaVectorStore, unreachable_rows
from rag_core.types import Chunk
from tests.conftest import open_assistant

NEW_TEXT = "员工饲养的宠物生病、手术或者离世时，可以申请宠物关怀假，每年不超过2天。宠物关怀假期间工资照发，不影响年终考核。"
TRIALS = 40


def _chunk(chunk_id: str, text: str = "x", audience=("all",)) -> Chunk:
    doc_id, rest = chunk_id.split("@v")
    version, index = rest.split("#")
    return Chunk(chunk_id=chunk_id, doc_id=doc_id, version=int(version), index=int(index), text=text,
                 source=f"{doc_id}.md", title=doc_id, section="", audience=audience)


def _store(tmp_path, settings) -> ChromaVectorStore:
    return ChromaVectorStore(path=tmp_path / "chroma", host=settings.chroma_host, port=settings.chroma_port,
                             model_id="test", name=f"policy_chunks_w{uuid.uuid4().hex[:10]}")


@pytest.mark.integration
def test_a_chunk_written_after_a_query_is_always_found(shared_assistant, tmp_path):
    a = shared_assistant
    chunks = a.catalog.all_chunks()
    vectors = a.embedder.embed_passages([index_text(c) for c in chunks])  # from the embedding cache
    new = _chunk("pet_care_leave@v1#0", NEW_TEXT)
    new_vector = a.embedder.embed_passages([index_text(new)])
    question = a.embedder.embed_query("宠物关怀假每年有几天？")

    repaired = 0
    for trial in range(TRIALS):
        store = _store(tmp_path / str(trial), a.settings)
        assert store.upsert(chunks, vectors) == []
        store.query(question, 30)  # the search that precedes an upload in a running app
        assert store.upsert([new], new_vector) == []
        assert store.count() == len(chunks) + 1
        assert [m.chunk_id for m in store.query(question, 30)][0] == new.chunk_id, f"trial {trial}"
        repaired += store.repaired
    print(f"\nwrites re-done after read-back: {repaired} in {TRIALS} trials")


@pytest.mark.integration
def test_exact_duplicates_are_not_mistaken_for_lost_records(tmp_path, shared_assistant):
    store = _store(tmp_path, shared_assistant.settings)
    rng = np.random.default_rng(3)
    same = rng.normal(size=(1, 384)).astype(np.float32)
    same /= np.linalg.norm(same)
    dupes = [_chunk(f"dup{i}@v1#0") for i in range(vector_store.VERIFY_K + 3)]
    assert store.upsert(dupes, np.repeat(same, len(dupes), axis=0)) == []
    assert store.repaired == 0


class LossyCollection:
    """A collection whose query() does not return the ids in `lost` until they were re-written `heal_after` times."""

    def __init__(self, lost: set[str], heal_after: int):
        self.vectors: dict[str, np.ndarray] = {}
        self.writes: dict[str, int] = {}
        self.lost, self.heal_after = lost, heal_after

    def upsert(self, ids, embeddings, metadatas):
        for cid, vec in zip(ids, embeddings):
            self.vectors[cid] = np.asarray(vec)
            self.writes[cid] = self.writes.get(cid, 0) + 1

    def get(self, ids=None, include=()):
        ids = list(self.vectors) if ids is None else [c for c in ids if c in self.vectors]
        return {"ids": ids, "embeddings": [self.vectors[c] for c in ids], "metadatas": [{} for _ in ids]}

    def query(self, query_embeddings, n_results, include):
        visible = [c for c in self.vectors if not (c in self.lost and self.writes[c] <= self.heal_after)]
        ids, dists = [], []
        for q in query_embeddings:
            scored = sorted(visible, key=lambda c: -float(self.vectors[c] @ q))[:n_results]
            ids.append(scored)
            dists.append([1.0 - float(self.vectors[c] @ q) for c in scored])
        return {"ids": ids, "distances": dists}


def _lossy_store(lost: set[str], heal_after: int) -> tuple[ChromaVectorStore, LossyCollection]:
    col = LossyCollection(lost, heal_after)
    store = ChromaVectorStore.__new__(ChromaVectorStore)
    store.repaired = 0
    store.recent = RecentWrites()
    store._partition = lambda audience: col
    store._partitions = {("all",): col}
    store._discover = lambda: None
    return store, col


def test_a_lost_write_is_rewritten_until_a_query_finds_it():
    store, col = _lossy_store({"b@v1#0"}, heal_after=1)
    chunks = [_chunk("a@v1#0"), _chunk("b@v1#0"), _chunk("c@v1#0")]
    assert store.upsert(chunks, np.eye(3, dtype=np.float32)) == []
    assert col.writes == {"a@v1#0": 1, "b@v1#0": 2, "c@v1#0": 1}
    assert store.repaired == 1


def test_a_write_that_stays_lost_is_reported_not_hidden():
    store, col = _lossy_store({"b@v1#0"}, heal_after=99)
    chunks = [_chunk("a@v1#0"), _chunk("b@v1#0")]
    assert store.upsert(chunks, np.eye(2, dtype=np.float32)) == ["b@v1#0"]
    assert col.writes["b@v1#0"] == 1 + vector_store.REPAIR_ATTEMPTS
    assert unreachable_rows(col, ["a@v1#0", "b@v1#0"], np.eye(2, dtype=np.float32)) == [1]


@pytest.mark.integration
def test_an_upload_whose_vectors_stay_lost_says_so(store_copy, monkeypatch):
    a = open_assistant(store_copy)
    real = a.vectors.upsert
    monkeypatch.setattr(a.vectors, "upsert", lambda chunks, vectors: real(chunks, vectors) or [chunks[0].chunk_id])
    report = a.ingest_bytes(("# 宠物关怀假\n\n" + NEW_TEXT).encode(), "pet_care_leave.md")
    assert report.status == "indexed"
    assert any("无法被向量检索找到" in w and "pet_care_leave@v1#0" in w for w in report.warnings), report.warnings
    assert "pet_care_leave" in [h.chunk.doc_id for h in a.search("宠物关怀假每年有几天？").hits]


def test_a_full_check_finds_and_rewrites_what_became_unreachable():
    store, col = _lossy_store(set(), heal_after=0)
    store.upsert([_chunk("a@v1#0"), _chunk("b@v1#0"), _chunk("c@v1#0")], np.eye(3, dtype=np.float32))
    col.lost, col.heal_after = {"b@v1#0"}, col.writes["b@v1#0"]  # later lost, as after deletes (chroma#7758)
    found = store.verify(repair=False)
    assert (found.checked, found.rewritten, found.unreachable) == (3, 0, ["b@v1#0"])
    deleted_meanwhile = store.verify(known=lambda cid: cid != "b@v1#0")  # not in the catalog: never written back
    assert (deleted_meanwhile.checked, deleted_meanwhile.rewritten, col.writes["b@v1#0"]) == (2, 0, 1)
    fixed = store.verify()
    assert (fixed.checked, fixed.rewritten, fixed.unreachable) == (3, 1, [])
    assert store.verify(repair=False).unreachable == []


@pytest.mark.integration
def test_a_full_verify_finds_a_lost_write_and_repairs_it(shared_assistant, tmp_path, monkeypatch):
    """Writes with the read-back switched off until Chroma loses one, then `verify` must find and fix it."""
    a = shared_assistant
    chunks = a.catalog.all_chunks()
    vectors = a.embedder.embed_passages([index_text(c) for c in chunks])
    new = _chunk("pet_care_leave@v1#0", NEW_TEXT)
    new_vector = a.embedder.embed_passages([index_text(new)])
    question = a.embedder.embed_query("宠物关怀假每年有几天？")
    real_check = vector_store.unreachable_rows
    for trial in range(TRIALS):
        store = _store(tmp_path / str(trial), a.settings)
        store.upsert(chunks, vectors)
        store.query(question, 30)
        monkeypatch.setattr(vector_store, "unreachable_rows", lambda col, ids, vecs: [])
        store.upsert([new], new_vector)
        monkeypatch.setattr(vector_store, "unreachable_rows", real_check)
        if new.chunk_id not in [m.chunk_id for m in store.query(question, len(chunks) + 1)]:
            break
    else:
        pytest.skip(f"Chroma kept every write in {TRIALS} trials (it lost 7-8 of 40 when measured)")
    assert store.verify(repair=False).unreachable == [new.chunk_id]
    report = store.verify()
    assert report.checked == len(chunks) + 1 and report.rewritten >= 1 and report.unreachable == []
    assert [m.chunk_id for m in store.query(question, 30)][0] == new.chunk_id
