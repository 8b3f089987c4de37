"""SQLite schema, timestamps and row mapping for the memory store.

Timestamps are stored as fixed-width ISO-8601 UTC text ("2026-05-01T08:00:00+00:00"),
readable in any SQLite browser and comparable as strings, which lets expiry and
purge run as plain ``WHERE created_at < ?`` queries.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..storage.new_store import create_store
from .scoring import as_utc

SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL,
    content       TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('profile', 'preference', 'episode', 'interaction')),
    importance    REAL NOT NULL CHECK (importance >= 0 AND importance <= 1),
    created_at    TEXT NOT NULL,
    last_accessed TEXT,
    access_count  INTEGER NOT NULL DEFAULT 0,
    source        TEXT NOT NULL DEFAULT '',
    embedding     BLOB,
    model_id      TEXT,
    deleted_at    TEXT,
    delete_reason TEXT,
    replaced_by   TEXT
);
CREATE INDEX IF NOT EXISTS memories_user_active ON memories (user_id, deleted_at);
CREATE INDEX IF NOT EXISTS memories_deleted ON memories (deleted_at);
CREATE TABLE IF NOT EXISTS memory_history (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    action     TEXT NOT NULL,
    content    TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL DEFAULT '',
    at         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_history_user ON memory_history (user_id, memory_id);
CREATE TABLE IF NOT EXISTS memory_centres (
    model_id       TEXT PRIMARY KEY,
    background     TEXT NOT NULL,
    query_centre   BLOB NOT NULL,
    memory_centre  BLOB NOT NULL
);
"""

COLUMNS = (
    "id, user_id, content, kind, importance, created_at, last_accessed, access_count, source, "
    "model_id, deleted_at, delete_reason, replaced_by"
)


def iso(ts: datetime) -> str:
    return as_utc(ts).isoformat(timespec="seconds")


def parse_iso(text: str) -> datetime:
    return as_utc(datetime.fromisoformat(text))


def utc_now() -> datetime:
    return datetime.now(UTC)


def connect(db_path: Path | str) -> sqlite3.Connection:
    """One shared connection (callers hold the store's lock); WAL so readers never block."""
    path = Path(db_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    create_store(path, SCHEMA)  # whole or not at all: a full disk left a 0-byte file read as a cut store
    conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30.0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    return conn


def batches(items: list, size: int = 500) -> list[list]:
    """Slices small enough for SQLite's bound-parameter limit."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def to_blob(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype=np.float32).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


@dataclass(frozen=True)
class MemoryRecord:
    """A stored memory with its audit fields (what `get` returns)."""

    id: str
    user_id: str
    content: str
    kind: str
    importance: float
    created_at: str
    last_accessed: str | None
    access_count: int
    source: str
    model_id: str | None
    deleted_at: str | None
    delete_reason: str | None
    replaced_by: str | None

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def deleted_by_person(self) -> bool:
        """Deleted, forgotten or expired, not superseded by a later telling (我调到了市场部 replaced 研发部: reason
        "replaced", as `MemoryStore.add` writes it)."""
        return self.deleted and self.delete_reason != "replaced"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def record_from_row(row: tuple) -> MemoryRecord:
    return MemoryRecord(*row)


def add_history(
    conn: sqlite3.Connection, memory_id: str, user_id: str, action: str, at: datetime, content: str = "", detail: str = ""
) -> None:
    conn.execute(
        "INSERT INTO memory_history (memory_id, user_id, action, content, detail, at) VALUES (?, ?, ?, ?, ?, ?)",
        (memory_id, user_id, action, content, detail, iso(at)),
    )
