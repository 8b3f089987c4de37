"""Review 335: a cache damaged where it sits (size and time kept) was trusted by the start's stamps, then its
first read raised SQLite's English "database disk image is malformed": every start failed (sentences.sqlite3)
or every upload (embedding_cache.sqlite3). A use that meets the damage now goes on with an empty cache in memory,
says so once, and forgets the file's stamp, so the next start reads it in full and sets it aside."""

from __future__ import annotations

import gc
import json
import os
import random
import sqlite3

import numpy as np
import pytest
from fakes import BigramEmbedder, fake_assistant

import rag_core.assistant
from rag_core.search.embedding import CachedEmbedder
from rag_core.search.sentence_index import SentenceIndex
from rag_core.storage.health import CHECKED

POLICY = "# 体检制度\n\n第一条 员工每年享有免费体检一次，费用由公司承担。\n\n第二条 体检结果由人力资源部保密保存。\n".encode()


def _garbled_in_place(path) -> None:
    """Pages overwritten as a bad sector would, the file's size and times kept."""
    st = path.stat()
    with open(path, "r+b") as file:
        file.seek(4096)
        file.write(bytes(random.Random(1).randrange(256) for _ in range(min(16384, st.st_size - 4096))))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _filled(path, rows: int) -> None:
    index = SentenceIndex(path, "m")
    index.put([(f"c{i}", np.ones(8, dtype=np.float32), np.ones((3, 8), dtype=np.float32)) for i in range(rows)])
    index.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def test_a_sentence_index_met_damaged_goes_on_in_memory_and_forgets_its_stamp(tmp_path):
    path = tmp_path / "sentences.sqlite3"
    _filled(path, 400)
    (tmp_path / CHECKED).write_text(json.dumps({path.name: [1, 2, 0], "catalog.sqlite3": [3, 4, 0]}), encoding="utf-8")
    _garbled_in_place(path)
    index = SentenceIndex(path, "m")
    assert index.count() == 0 and "sentences.sqlite3" in index.damaged and "下次启动" in index.damaged
    index.put([("c1", np.ones(8, dtype=np.float32), None)])
    assert set(index.get(["c1"])) == {"c1"}
    assert json.loads((tmp_path / CHECKED).read_text(encoding="utf-8")) == {"catalog.sqlite3": [3, 4, 0]}


def test_an_embedding_cache_met_damaged_embeds_uncached_then_in_memory(tmp_path):
    path = tmp_path / "embedding_cache.sqlite3"
    cache = CachedEmbedder(BigramEmbedder(), path)
    cache.embed_passages([f"第{i}条 员工每年享有第{i}项福利。" for i in range(600)])
    cache._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    cache._db.close()
    _garbled_in_place(path)
    again = CachedEmbedder(BigramEmbedder(), path)
    vectors = again.embed_passages(["员工每年享有免费体检一次。", "体检结果保密。"])
    assert vectors.shape[0] == 2 and "embedding_cache.sqlite3" in again.damaged
    again.embed_passages(["员工每年享有免费体检一次。"])
    assert again.computed == 2  # the second call found the first's vectors in the cache in memory


@pytest.mark.parametrize("name", ["sentences.sqlite3", "embedding_cache.sqlite3"])
def test_a_start_on_a_cache_damaged_in_place_answers_and_uploads(tmp_path, monkeypatch, name):
    store = tmp_path / "store"
    a = fake_assistant(store)
    assert a.ingest_bytes("\n\n".join(f"第{i}条 员工第{i}项福利按月发放，标准为{i}元。" for i in range(1, 300)).encode(),
                          "福利.md").ok
    a.release_data_dir()
    a.catalog.close()
    del a
    gc.collect()
    for path in store.glob("*.sqlite3"):
        con = sqlite3.connect(path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
    _garbled_in_place(store / name)
    monkeypatch.setattr(rag_core.assistant, "open_checks", lambda *args, **kwargs: [])  # as a trusted stamp does
    again = fake_assistant(store)
    assert again.search("第7项福利的标准是多少").hit_count
    report = again.ingest_bytes(POLICY, "体检制度.md")
    assert report.ok, report.error
    assert any(name in notice for notice in again.store_notices) or name == "embedding_cache.sqlite3"


def test_a_closed_connection_is_no_damage(tmp_path):
    """Review 336: a closed connection (a misuse, not the file's bytes) was taken for damage, the file distrusted."""
    index = SentenceIndex(tmp_path / "sentences.sqlite3", "m")
    index.close()
    with pytest.raises(sqlite3.ProgrammingError):
        index.count()
    assert not index.damaged
