"""A cache file found damaged while in use: this process goes on without it, the next start sets it aside.

A start reads a cache in full only when its size or time changed since a start found it healthy
(`health._Checked`): damage where it sits (a bad sector, a copy that kept the times) kept both, and the
first read of a damaged page raised SQLite's English "database disk image is malformed" at every start, or
failed every upload (review 335). The caches (`health.CACHES`) hold nothing the catalog cannot give again, so
a use that meets such damage takes an empty cache in memory for the rest of the process and removes the
file's stamp: the next start checks it in full, moves it aside and rebuilds it, with its notice.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

from .health import CHECKED

_log = logging.getLogger(__name__)


_DAMAGE_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


def is_damage(exc: BaseException) -> bool:
    """SQLite found the file's bytes wrong (malformed, not a database): not a lock, a full disk, a permission, nor a
    closed connection or a misuse (review 336: a closed connection was taken for damage and a healthy file distrusted)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and isinstance(code, int) and code & 0xFF in _DAMAGE_CODES


def distrust(path: Path) -> None:
    """Forget that a start found `path` healthy, so the next start reads it in full (and sets it aside)."""
    checked = Path(path).parent / CHECKED
    try:
        stamps = json.loads(checked.read_text(encoding="utf-8"))
        if isinstance(stamps, dict) and stamps.pop(Path(path).name, None) is not None:
            tmp = checked.with_name(checked.name + ".tmp")
            tmp.write_text(json.dumps(stamps), encoding="utf-8")
            tmp.replace(checked)
    except (OSError, ValueError, RecursionError):
        pass  # no stamps, or none that can be written: the next start checks in full anyway or cannot save


def damaged_note(path: Path) -> str:
    """The store notice for a cache met damaged in use."""
    return (f"{Path(path).name} 数据库文件已损坏（读取时发现）：它只是缓存，本次运行改用内存里的空缓存，"
            "下次启动时会移开并从文档目录重建，不丢数据")


def open_cache(path: Path, schema: str, *, isolation_level: str | None = "") -> tuple[sqlite3.Connection, str]:
    """The cache at `path` (WAL, `schema` made), and "" — or, when the file is damaged, an empty one in memory
    (`fresh_in_memory`) and the store notice that says so."""
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=isolation_level)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(schema)
        return db, ""
    except sqlite3.DatabaseError as exc:
        db.close()  # the damaged file is not held open for the rest of the process
        if not is_damage(exc):
            raise
        return fresh_in_memory(path, exc, schema)


def fresh_in_memory(path: Path, exc: BaseException, schema: str) -> tuple[sqlite3.Connection, str]:
    """An empty in-memory cache holding `schema`, to use instead of the damaged `path` for the rest of the process,
    and the store notice; the file's stamp is forgotten (`distrust`)."""
    _log.warning("%s damaged in use (%s): an empty cache in memory until the next start sets it aside", path, exc)
    distrust(path)
    db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    db.executescript(schema)
    return db, damaged_note(path)
