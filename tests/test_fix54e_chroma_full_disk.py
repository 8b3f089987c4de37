"""Chroma failing on a full disk is left where it is, said in Chinese; set-aside names never collide (review 54e #2).

On a full tmpfs after a kill -9, Chroma's open raised "error returned from database: (code: 13) database or disk
is full": the start moved the healthy index aside at every page run, and two moves in one second nested the
second into the first. The full disk is simulated with the error Chroma raises (a real one needs root).
"""

from __future__ import annotations

import gc
import shutil
from collections import namedtuple
from datetime import UTC, datetime
from pathlib import Path

import pytest
from chromadb.errors import InternalError
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.search import vector_store
from rag_core.storage import health
from rag_core.storage import set_aside as aside_module
from rag_core.storage.health import set_aside_chroma

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
Usage = namedtuple("Usage", "total used free")


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.release_data_dir()
    del assistant
    gc.collect()
    return data


def _moved(store: Path) -> list[Path]:
    return sorted(store.glob("chroma.damaged-*"))


@pytest.mark.parametrize("said", [
    "error returned from database: (code: 13) database or disk is full",
    "error returned from database: (code: 4874) disk I/O error",
])
def test_fix54e_chroma_on_a_full_disk_is_not_moved_and_said_in_chinese(store, monkeypatch, said):
    def count(self):
        raise InternalError(said)

    monkeypatch.setattr(vector_store.ChromaVectorStore, "count", count)
    for _ in range(3):  # each page run starts again: still nothing moved
        with pytest.raises(StoreDamaged) as refused:
            fake_assistant(store)
        gc.collect()
        assert "磁盘空间已满" in str(refused.value) and "error returned" not in str(refused.value)
    assert not _moved(store) and (store / "chroma" / "chroma.sqlite3").exists()


def test_fix54e_chroma_is_not_set_aside_on_a_full_volume(store, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: Usage(100, 100, 0))
    with pytest.raises(StoreDamaged, match="磁盘空间已满"):
        set_aside_chroma(store, "Error loading hnsw index")
    assert not _moved(store)


def test_fix54e_two_set_asides_in_one_instant_never_nest(tmp_path, monkeypatch):
    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 12, 5, 20, 29, 46, tzinfo=UTC)

    monkeypatch.setattr(aside_module, "datetime", Frozen)
    monkeypatch.setattr(health, "datetime", Frozen, raising=False)  # where the stamp was made before
    set_aside = health._set_aside  # what open_checks and the start move with
    first_dir = tmp_path / "chroma"
    first_dir.mkdir()
    (first_dir / "chroma.sqlite3").write_bytes(b"one")
    first = set_aside(first_dir)
    first_dir.mkdir()
    (first_dir / "chroma.sqlite3").write_bytes(b"two")
    second = set_aside(first_dir)
    assert first != second and first.parent == second.parent == tmp_path
    assert (first / "chroma.sqlite3").read_bytes() == b"one" and (second / "chroma.sqlite3").read_bytes() == b"two"
    assert not (first / "chroma").exists()
