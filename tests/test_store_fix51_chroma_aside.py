"""Chroma is set aside only while this start has the data dir alone; with another process on it nothing moves.

A damaged chroma.sqlite3 was moved aside by `open_checks` without the data dir's exclusive lock, and a Chroma
that failed to open was moved by `_open_vectors` holding only the shared one: chroma/ could go away under a
live app or CLI command, which then wrote into the set-aside copy. Now the start refuses in Chinese and
leaves the files; once it is alone the cache is moved and rebuilt as before.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant
from holding_process import HoldingProcess

from rag_core.errors import StoreDamaged
from rag_core.search import vector_store

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    del assistant
    gc.collect()
    return data


@pytest.fixture()
def other(store: Path):
    holder = HoldingProcess(store)
    yield holder
    holder.stop()


def _truncate(path: Path) -> None:
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)


def _set_aside(store: Path) -> list[Path]:
    return sorted(store.glob("chroma.damaged-*"))


def test_a_damaged_chroma_database_is_left_in_place_while_another_process_has_it_open(store, other):
    _truncate(store / "chroma" / "chroma.sqlite3")
    size = (store / "chroma" / "chroma.sqlite3").stat().st_size
    with pytest.raises(StoreDamaged, match="另一个进程.*没有移走.*请先停止应用"):
        fake_assistant(store)
    assert not _set_aside(store) and (store / "chroma" / "chroma.sqlite3").stat().st_size == size

    other.stop()
    assistant = fake_assistant(store)  # alone now: set aside and rebuilt, as before
    assert len(_set_aside(store)) == 1 and assistant.store_notices[0].startswith("chroma/chroma.sqlite3")
    assert assistant.vectors.count() == assistant.catalog.chunk_count()


def _failing_first_count(monkeypatch) -> None:
    """Chroma that fails to open although its database looks healthy (a garbled HNSW segment), once."""
    real = vector_store.ChromaVectorStore.count
    calls = []

    def count(self):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("Error loading hnsw index")
        return real(self)

    monkeypatch.setattr(vector_store.ChromaVectorStore, "count", count)


def test_chroma_that_fails_to_open_is_not_moved_under_another_process(store, other, monkeypatch):
    _failing_first_count(monkeypatch)
    with pytest.raises(StoreDamaged, match="chroma/ 无法打开.*另一个进程"):
        fake_assistant(store)
    assert not _set_aside(store) and (store / "chroma" / "chroma.sqlite3").exists()


def test_chroma_that_fails_to_open_is_set_aside_when_this_start_is_alone(store, monkeypatch):
    _failing_first_count(monkeypatch)
    assistant = fake_assistant(store)  # its own hold is let go for the move, and taken again
    assert len(_set_aside(store)) == 1 and assistant.store_notices[-1].startswith("chroma/ 无法打开")
    assert assistant.vectors.count() == assistant.catalog.chunk_count()
    probe = (f"import sys; sys.path[:0] = [{str(REPO)!r}]; from pathlib import Path; "
             f"from rag_core.storage.open_lock import in_use; print(in_use(Path({str(store)!r})))")
    seen = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert seen.stdout.strip() == "True"  # its hold was taken again: a restore elsewhere still refuses
