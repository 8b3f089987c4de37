"""The candidates' rows search keeps between questions (`search/row_cache.py`) never outlive a catalog change."""

from __future__ import annotations

from rag_core.search.row_cache import GenerationCache
from tests.fakes import fake_assistant

OLD = "# 休假制度\n\n## 年假\n\n员工每年享有带薪年假五天，须提前三天申请。\n"
NEW = "# 休假制度\n\n## 年假\n\n员工每年享有带薪年假十五天，年假可以跨年度顺延一次。\n"


def test_a_document_uploaded_again_under_its_old_chunk_ids_is_read_anew(tmp_path, monkeypatch):
    """Chunks that come back under the same ids (doc@v1#0) with other text and vectors — a store from before stop 57
    numbered a deleted document's next upload from 1 again; forced here — must not be read from the kept rows: a
    search after the rows were kept must show the new text and score the new vectors."""
    from rag_core.documents.catalog import Catalog

    monkeypatch.setattr(Catalog, "next_version", lambda self, doc_id: 1)
    assistant = fake_assistant(tmp_path / "store")
    first = assistant.ingest_bytes(OLD.encode("utf-8"), "leave.md")
    assert first.ok, first.error
    before = assistant.search("年假有几天？")
    kept = {h.chunk.chunk_id for h in before.hits}
    assert kept and all("五天" in h.chunk.text for h in before.hits)
    assert assistant.retriever._chunk_rows.get(sorted(kept), assistant.catalog.generation())  # warm
    assistant.delete_document(first.doc_id)
    again = assistant.ingest_bytes(NEW.encode("utf-8"), "leave.md")
    assert again.ok, again.error
    after = assistant.search("年假有几天？")
    assert {h.chunk.chunk_id for h in after.hits} & kept  # the same ids came back
    assert all("十五天" in h.chunk.text for h in after.hits)
    fresh = fake_assistant(tmp_path / "store")  # a process that never kept the old rows
    assert [vars(h.scores) for h in fresh.search("年假有几天？").hits] == [vars(h.scores) for h in after.hits]


def test_rows_read_while_the_catalog_changed_are_used_but_not_kept():
    generation = [1]

    def load(ids: list[str]) -> dict[str, str]:
        generation[0] += 1  # another thread commits while these rows are read
        return {cid: f"row of {cid}" for cid in ids}

    cache = GenerationCache(load, lambda: generation[0])
    assert cache.get(["a", "b"], 1) == {"a": "row of a", "b": "row of b"}
    assert cache.get(["a"], 1) == {"a": "row of a"} and cache.loaded == 3  # read again: nothing was kept
    cache = GenerationCache(lambda ids: {cid: cid for cid in ids if cid != "gone"}, lambda: 5, capacity=2)
    assert cache.get(["a", "gone", "b"], 5) == {"a": "a", "b": "b"}
    assert cache.get(["a", "b", "c"], 5) == {"a": "a", "b": "b", "c": "c"} and cache.loaded == 4
    assert cache.get(["c"], 6) == {"c": "c"} and cache.loaded == 5  # a new generation reads everything anew


def test_row_cosines_equal_each_chunks_own_products():
    """One product over all candidates' rows gives each chunk's cosine and its best *sentence*: never the next
    chunk's own row (the blocks lie end to end), and a chunk without sentences is its own best sentence."""
    import numpy as np

    from rag_core.search.row_cache import row_cosines

    rng = np.random.default_rng(3)
    stored = {cid: rng.normal(size=(n, 8)).astype(np.float16) for cid, n in [("a", 3), ("lone", 1), ("b", 2), ("c", 4)]}
    stored["b"][1] = -5.0  # b's only sentence scores far below c's chunk row right after it
    stored["c"][0] = 9.0
    readings = rng.normal(size=(8, 2)).astype(np.float32)
    found = row_cosines(stored, readings)
    assert list(found) == list(stored)
    for cid, rows in stored.items():
        own = rows.astype(np.float32) @ readings
        chunk, sentence = found[cid]
        assert np.allclose(chunk, own[0], atol=1e-5)
        assert np.allclose(sentence, own[1:].max(axis=0) if len(rows) > 1 else own[0], atol=1e-5)
    assert row_cosines({}, readings) == {}
