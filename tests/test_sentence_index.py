"""Small-to-big storage: each chunk's vector and its sentences' vectors, in real SQLite."""

from __future__ import annotations

import numpy as np

from rag_core.search.sentence_index import SentenceIndex, sentence_texts, vector_rows
from rag_core.types import Chunk


def chunk(text: str, cid: str = "d@v1#0") -> Chunk:
    return Chunk(cid, "d", 1, 0, text, "住房公积金管理条例.md", "住房公积金管理条例", "第四章 提取和使用 > 第二十四条")


def test_an_enumerated_item_keeps_its_lead_and_heading():
    texts = sentence_texts(chunk("职工有下列情形之一的，可以提取住房公积金：\n（一）购买自住住房的；\n（五）出境定居的；"))
    assert len(texts) == 3
    assert texts[2].startswith("住房公积金管理条例 第四章") and "可以提取住房公积金" in texts[2] and "出境定居" in texts[2]
    assert sentence_texts(chunk("只有一句话。")) == []  # the chunk vector is the sentence


def test_rows_round_trip_through_sqlite(tmp_path):
    chunks = [chunk("第一句。第二句。", "a"), chunk("一句。", "b")]
    calls = []

    def embed(texts):
        calls.append(list(texts))
        return np.eye(4, dtype=np.float32)[: len(texts)]

    rows = vector_rows(chunks, np.ones((2, 4), dtype=np.float32) / 2, embed)
    assert len(calls) == 1 and len(calls[0]) == 2  # one batch for every sentence of the upload
    index = SentenceIndex(tmp_path / "s.sqlite3", "m1")
    index.put(rows)
    got = index.get(["a", "b", "missing"])
    assert set(got) == {"a", "b"}
    assert got["a"][1].shape == (2, 4) and got["b"][1] is None
    assert np.allclose(got["a"][0], 0.5)
    index.delete(["a"])
    assert index.ids() == {"b"}
    other = SentenceIndex(tmp_path / "s.sqlite3", "m2")
    assert other.get(["b"]) == {}  # another model's vectors are never mixed in
    other.drop_other_models()
    assert index.ids() == set()


def test_the_checks_of_every_start_read_the_model_index_not_the_table(tmp_path) -> None:
    """count, ids and drop_other_models run at every start (backfill_rows): each must use the index on the
    model, or it scans every row's blobs (60 MB for the second model at 10k chunks)."""
    index = SentenceIndex(tmp_path / "s.sqlite3", "m1")
    index.put([("a", np.ones(4, dtype=np.float32), None)])
    SentenceIndex(tmp_path / "s.sqlite3", "m2").put([("b", np.ones(4, dtype=np.float32), None)])
    ran: list[str] = []
    index._db.set_trace_callback(ran.append)  # the statements as run, values filled in
    index.count(), index.ids(), index.drop_other_models()
    index._db.set_trace_callback(None)
    statements = [sql for sql in ran if "vectors" in sql]
    assert len(statements) == 3, ran
    for sql in statements:
        plan = " ".join(str(row[-1]) for row in index._db.execute(f"EXPLAIN QUERY PLAN {sql}"))
        assert "vectors_by_model" in plan, (sql, plan)
    assert SentenceIndex(tmp_path / "s.sqlite3", "m2").count() == 0 and index.ids() == {"a"}
