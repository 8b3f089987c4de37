"""A start reads a store file in full only when it changed since a start found it healthy (storage.health._Checked)."""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path

import pytest
from fakes import fake_assistant

import rag_core.storage.health as health

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
CACHE = "embedding_cache.sqlite3"


def close(assistant) -> None:
    """Close the SQLite files as a process exit does (their WAL is checkpointed and removed)."""
    for part in (assistant.catalog, assistant.embedder, assistant.sentences):
        part.close()
    del assistant
    gc.collect()


def age(data: Path, seconds: float = 60) -> None:
    """Make every file look written `seconds` ago (a store from an earlier session)."""
    then = time.time() - seconds
    for path in data.rglob("*"):
        if path.is_file():
            os.utime(path, (then, then))


@pytest.fixture()
def checked_store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    a = fake_assistant(data)
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    close(a)
    age(data)
    close(fake_assistant(data))  # this start reads every file in full and notes them as healthy
    return data


def thorough_reads(monkeypatch) -> list[str]:
    names: list[str] = []
    real = health.sqlite_problem

    def counting(path, *, thorough: bool = True):
        if thorough:
            names.append(Path(path).name)
        return real(path, thorough=thorough)

    monkeypatch.setattr(health, "sqlite_problem", counting)
    return names


def test_unchanged_files_are_not_read_in_full_again(checked_store: Path, monkeypatch) -> None:
    reads = thorough_reads(monkeypatch)
    a = fake_assistant(checked_store)
    assert CACHE not in reads and "sentences.sqlite3" not in reads, reads
    assert a.search("年假有几天").hits


def test_a_cache_damaged_after_a_healthy_start_is_still_set_aside(checked_store: Path) -> None:
    path = checked_store / CACHE
    data = bytearray(path.read_bytes())
    data[:4096] = bytes((b * 7 + 13) % 256 for b in data[:4096])
    path.write_bytes(bytes(data))
    a = fake_assistant(checked_store)
    assert len(a.store_notices) == 1 and a.store_notices[0].startswith(CACHE)
    assert a.search("年假有几天").hits


def test_a_file_written_moments_ago_is_always_read_in_full(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "store"
    a = fake_assistant(data)
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    close(a)
    close(fake_assistant(data))  # files just written: not trusted yet
    reads = thorough_reads(monkeypatch)
    close(fake_assistant(data))
    assert CACHE in reads
