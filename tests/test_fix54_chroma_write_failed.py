"""Chroma failing to open with a write error on a volume with room left (SQLITE_IOERR_WRITE, code 778: EIO from a
failing disk) is said as a disk I/O error and left where it is: set aside and rebuilt on the same failing disk, the
rebuild fails too, at every page run (review 54i, left alone)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from chromadb.errors import InternalError
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.search import vector_store

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.release_data_dir()
    del assistant
    gc.collect()
    return data


def test_fix54_chroma_with_a_write_error_is_not_moved(store, monkeypatch) -> None:
    def count(self):
        raise InternalError("error returned from database: (code: 778) disk I/O error")

    monkeypatch.setattr(vector_store.ChromaVectorStore, "count", count)
    for _ in range(2):
        with pytest.raises(StoreDamaged) as refused:
            fake_assistant(store)
        gc.collect()
        said = str(refused.value)
        assert "磁盘 I/O 错误" in said and "error returned" not in said and "磁盘空间已满" not in said
    assert not sorted(store.glob("chroma.damaged-*")) and (store / "chroma" / "chroma.sqlite3").exists()
