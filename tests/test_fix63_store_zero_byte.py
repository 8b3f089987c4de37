"""A store whose first schema write fails (a full disk) leaves no file behind (review 63, defect 1).

`sqlite3.connect` made the file (0 bytes) before the schema write failed; once space was freed, the start and
doctor read that file as a store cut to nothing (an install without accounts was told its accounts were lost,
all pages paused). Every store now comes into being through `storage.new_store.create_store`: whole or not at all.

A full disk is simulated with RLIMIT_FSIZE 0 (every write that grows a file fails, SIGXFSZ ignored), for the
moment a store is opened only: no root, no tmpfs.
"""

from __future__ import annotations

import resource
import signal
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings as ChromaSettings
from fakes import BigramEmbedder

from rag_core.conversations.store import ConversationStore
from rag_core.insights.log import InsightLog
from rag_core.insights.standard import StandardAnswers
from rag_core.memory import db as memory_db
from rag_core.storage.new_store import create_store


@contextmanager
def no_room() -> Iterator[None]:
    """Every write that would grow a file fails (EFBIG), as on a full disk."""
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, handler)


def _standard(path: Path, client) -> StandardAnswers:
    embedder = BigramEmbedder()
    return StandardAnswers(path, client, "sa_test", embedder.model_id,
                           lambda texts: np.vstack([embedder.vector(t) for t in texts]))


def _openers(tmp_path: Path):
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    return {
        "conversations.sqlite3": ConversationStore,
        "memory.sqlite3": lambda p: memory_db.connect(p).close(),
        "insights.sqlite3": InsightLog,
        "standard_answers.sqlite3": lambda p: _standard(p, client),
    }


@pytest.mark.parametrize("name", ["conversations.sqlite3", "memory.sqlite3", "insights.sqlite3",
                                  "standard_answers.sqlite3"])
def test_a_store_whose_first_write_fails_leaves_no_file(tmp_path: Path, name: str):
    data = tmp_path / "data"
    data.mkdir()
    opener = _openers(tmp_path)[name]
    with no_room(), pytest.raises(sqlite3.Error):
        opener(data / name)
    assert sorted(p.name for p in data.iterdir()) == []  # neither a 0-byte store nor a scratch file
    opener(data / name)  # space freed: the store is made, whole
    con = sqlite3.connect(data / name)
    try:
        assert con.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0] > 0
    finally:
        con.close()


def test_create_store_leaves_an_existing_file_alone(tmp_path: Path):
    path = tmp_path / "x.sqlite3"
    assert create_store(path, "CREATE TABLE t (a);") is True
    con = sqlite3.connect(path)
    con.execute("INSERT INTO t VALUES (1)")
    con.commit()
    con.close()
    assert create_store(path, "CREATE TABLE other (b);") is False
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT a FROM t").fetchall() == [(1,)]
        assert con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'other'").fetchone()[0] == 0
    finally:
        con.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.sqlite3"]


def test_create_store_sets_the_mode_before_the_name(tmp_path: Path):
    path = tmp_path / "accounts.sqlite3"
    create_store(path, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);", mode=0o600)
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_full_disk_is_said_as_one(tmp_path: Path):
    """The failure reaches the store's caller as SQLite's error (its own handling says 磁盘空间已满)."""
    with no_room(), pytest.raises(sqlite3.Error):
        create_store(tmp_path / "y.sqlite3", "CREATE TABLE t (a);")
    assert list(tmp_path.iterdir()) == []
