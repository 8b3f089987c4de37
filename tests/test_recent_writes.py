"""A chunk this process just wrote is found by the next query even where Chroma's approximate search misses it.

Real embedded Chroma; one partition is wrapped so its query drops the new record for every vector but its
own, which is the miss seen in CI (`rag_core/search/recent_writes.py`). The exact search over recent
writes must bring it back, and must keep to the reader's partitions, the hidden versions and deletes.
"""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.search.recent_writes import RecentWrites, merged
from rag_core.search.vector_records import VectorMatch, VectorScope
from rag_core.search.vector_store import ChromaVectorStore
from rag_core.types import Chunk

DIM = 32
NEW = "fresh@v1#0"


def _chunk(chunk_id: str, audience=("all",)) -> Chunk:
    doc_id, rest = chunk_id.split("@v")
    version, index = rest.split("#")
    return Chunk(chunk_id=chunk_id, doc_id=doc_id, version=int(version), index=int(index), text="x",
                 source=f"{doc_id}.md", title=doc_id, section="", audience=audience)


class MissesForOthers:
    """A Chroma collection whose query leaves out `hidden_id` unless asked with that record's own vector."""

    def __init__(self, col, hidden_id: str):
        self._col, self.hidden_id = col, hidden_id

    def __getattr__(self, name):
        return getattr(self._col, name)

    def query(self, query_embeddings, n_results, include, where=None):
        res = self._col.query(query_embeddings=query_embeddings, n_results=n_results, include=include, where=where)
        own = self._col.get(ids=[self.hidden_id], include=["embeddings"])["embeddings"]
        for row, q in enumerate(np.asarray(query_embeddings, dtype=np.float32)):
            if len(own) and np.allclose(q, own[0], atol=1e-6):
                continue
            keep = [i for i, cid in enumerate(res["ids"][row]) if cid != self.hidden_id]
            res["ids"][row] = [res["ids"][row][i] for i in keep]
            res["distances"][row] = [res["distances"][row][i] for i in keep]
        return res


def _unit(rng, n: int) -> np.ndarray:
    v = rng.normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.fixture
def store(tmp_path):
    """50 old chunks for everyone, written before the wrapper (and then forgotten as recent writes)."""
    s = ChromaVectorStore(path=tmp_path / "chroma", model_id="test")
    rng = np.random.default_rng(7)
    s.upsert([_chunk(f"old{i}@v1#0") for i in range(50)], _unit(rng, 50))
    s.recent.clear()
    for audience in [("all",), ("hr",)]:
        col = s._partition(audience)
        s._partitions = {**s._partitions, audience: MissesForOthers(col, NEW)}
    return s


def _question_near(vector: np.ndarray) -> np.ndarray:
    q = vector + 0.05 * np.ones(DIM, dtype=np.float32)
    return q / np.linalg.norm(q)


def test_the_wrapper_reproduces_the_miss(store):
    vec = _unit(np.random.default_rng(1), 1)
    assert store.upsert([_chunk(NEW)], vec) == []  # read back with its own vector: found
    store.recent.clear()
    assert NEW not in [m.chunk_id for m in store.query(_question_near(vec[0]), 10)]


def test_a_fresh_write_missed_by_the_index_is_found_first(store):
    vec = _unit(np.random.default_rng(1), 1)
    store.upsert([_chunk(NEW)], vec)
    found = store.query(_question_near(vec[0]), 10)
    assert found[0].chunk_id == NEW
    assert len(found) == 10 and len({m.chunk_id for m in found}) == 10


def test_a_fresh_write_stays_in_its_audience(store):
    vec = _unit(np.random.default_rng(1), 1)
    store.upsert([_chunk(NEW, audience=("hr",))], vec)
    question = _question_near(vec[0])
    assert NEW not in [m.chunk_id for m in store.query(question, 10, VectorScope(audiences=frozenset({("all",)})))]
    assert store.query(question, 10, VectorScope(audiences=frozenset({("all",), ("hr",)})))[0].chunk_id == NEW


def test_a_hidden_version_and_a_deleted_chunk_are_not_brought_back(store):
    vec = _unit(np.random.default_rng(1), 1)
    store.upsert([_chunk(NEW)], vec)
    question = _question_near(vec[0])
    hidden = VectorScope(hidden_keys=frozenset({"fresh@v1"}), hidden_chunks=1)
    assert NEW not in [m.chunk_id for m in store.query(question, 10, hidden)]
    store.delete([NEW])
    assert NEW not in [m.chunk_id for m in store.query(question, 10)]


def test_a_reset_forgets_the_recent_writes(store):
    vec = _unit(np.random.default_rng(1), 1)
    store.upsert([_chunk(NEW)], vec)
    store.reset("test")
    assert store.query(vec[0], 10) == []


def test_only_the_last_writes_are_kept():
    recent = RecentWrites(capacity=3)
    vectors = np.eye(5, dtype=np.float32)
    recent.add(("all",), [f"c{i}" for i in range(5)], vectors)
    assert len(recent) == 3
    assert [m.chunk_id for m in recent.nearest(vectors[0], 5, [("all",)], lambda _: False)][0] != "c0"
    assert recent.nearest(vectors[4], 1, [("all",)], lambda _: False)[0].chunk_id == "c4"


def test_a_chunk_moved_to_another_audience_is_only_in_the_new_one():
    recent = RecentWrites()
    recent.add(("hr",), ["c"], np.ones((1, 4), dtype=np.float32))
    recent.add(("all",), ["c"], np.ones((1, 4), dtype=np.float32))
    assert recent.nearest(np.ones(4), 5, [("hr",)], lambda _: False) == []


def test_merged_keeps_each_chunk_once_with_its_best_cosine():
    out = merged([VectorMatch("a", 0.5), VectorMatch("b", 0.4)], [VectorMatch("b", 0.6), VectorMatch("c", 0.1)], 2)
    assert out == [VectorMatch("b", 0.6), VectorMatch("a", 0.5)]


def test_a_chunk_another_process_deleted_is_not_brought_back(store, tmp_path):
    """Review 373 #2: rows deleted through another store object (the CLI beside the app) crowded the vector slots."""
    vec = _unit(np.random.default_rng(1), 1)
    store.upsert([_chunk(NEW)], vec)
    other = ChromaVectorStore(path=tmp_path / "chroma", model_id="test")  # the same files, as another process
    other.delete([NEW])
    assert NEW not in [m.chunk_id for m in store.query(_question_near(vec[0]), 10)]
    assert len(store.recent) == 0  # dropped, so the next query does not read it back again


def test_the_rows_are_packed_once_between_writes():
    recent = RecentWrites()
    recent.add(("all",), ["a", "b"], np.eye(2, 4, dtype=np.float32))
    packed = recent._pack()
    recent.nearest(np.ones(4), 2, [("all",)], lambda _: False)
    assert recent._pack() is packed  # a query does not restack them (8 ms at 4,096 rows, measured)
    recent.add(("all",), ["c"], np.ones((1, 4), dtype=np.float32))
    assert recent._pack() is not packed and len(recent._pack()[0]) == 3


def test_many_hidden_rows_still_leave_the_n_best_visible_ones():
    recent = RecentWrites()
    vectors = np.random.default_rng(2).normal(size=(200, 8)).astype(np.float32)
    recent.add(("all",), [f"old@v1#{i}" for i in range(150)] + [f"new@v2#{i}" for i in range(50)], vectors)
    found = recent.nearest(vectors[0], 10, [("all",)], lambda cid: cid.startswith("old@"))
    assert len(found) == 10 and all(m.chunk_id.startswith("new@") for m in found)
    assert [m.cosine for m in found] == sorted((m.cosine for m in found), reverse=True)


def test_recent_rows_outside_the_top_are_not_read_back(store):
    """Review 375 #5: every query read Chroma by id for recent rows that could not enter the result."""
    rng = np.random.default_rng(5)
    store.upsert([_chunk(f"fresh{i}@v1#0") for i in range(40)], _unit(rng, 40))
    reads = []
    for col in list(store._partitions.values()):
        real_get = col.get

        def counted(*args, _get=real_get, **kwargs):
            reads.append(kwargs.get("ids"))
            return _get(*args, **kwargs)

        col.get = counted
    for question in _unit(rng, 10):
        store.query(question, 10)
    assert reads == []


def test_a_query_that_reads_nothing_back_keeps_the_rows_packed(store):
    """Review 378 #5: every query dropped an empty set, which threw the packed rows away."""
    rng = np.random.default_rng(6)
    store.upsert([_chunk(f"fresh{i}@v1#0") for i in range(40)], _unit(rng, 40))
    store.query(_unit(rng, 1)[0], 10)
    packed = store.recent._pack()
    for question in _unit(rng, 5):
        store.query(question, 10)
    assert store.recent._pack() is packed
