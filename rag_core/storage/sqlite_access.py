"""A store file that cannot be *reached* is not a damaged one: the two are told apart here.

SQLite reports a read-only or foreign-owned directory as "unable to open database file"
(SQLITE_CANTOPEN) or SQLITE_READONLY*: a WAL database opened `mode=ro` needs its `-shm`
file, and cannot make one in a directory it cannot write (a read-only mount, a snapshot,
a backup on read-only media). Reported as damage, the advice was to move the file away
and delete chroma/ — destroying a healthy library. A file whose directory was renamed
under an open connection (a restore swapped the data dir) says SQLITE_READONLY_DBMOVED:
the fix is a restart, not a restore either.

`connect_ro` reads such a file anyway: when `mode=ro` cannot open it and its directory
cannot be written (so nobody here writes it), `immutable=1` reads it without the `-shm`.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

UNREADABLE = "无法读取（只读或没有权限）"
UNREADABLE_FIX = "请检查目录权限"
REPLACED = "数据目录已被替换"
REPLACED_FIX = "请重启应用"

_ACCESS_CODES = {sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH}
_REASONS = {UNREADABLE: UNREADABLE_FIX, REPLACED: REPLACED_FIX}


def access_problem(exc: BaseException) -> str | None:
    """The Chinese reason when `exc` says the file could not be reached (not damage), else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return None
    if code == sqlite3.SQLITE_READONLY_DBMOVED:  # checked before the primary code: it is a READONLY too
        return f"{REPLACED}：{REPLACED_FIX}"
    if code & 0xFF in _ACCESS_CODES:
        return f"{UNREADABLE}：{UNREADABLE_FIX}"
    return None


def access_reason(problem: str | None) -> tuple[str, str] | None:
    """(what, fix) when `problem` is one `access_problem` wrote, else None (damage, or no problem)."""
    for what, fix in _REASONS.items():
        if problem and problem.startswith(what):
            return what, fix
    return None


def problem_of(exc: sqlite3.Error) -> str:
    """The one reason for a failed read: not reachable (see `access_problem`), or damaged."""
    return access_problem(exc) or f"数据库文件已损坏（{exc}）"


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK)


def connect_ro(path: Path, *, timeout: float = 30) -> sqlite3.Connection:
    """A read-only connection that has opened `path` (sqlite_master read), immutable in a read-only directory.

    Raises what SQLite raises otherwise: damage stays damage, and a file no one may read stays unreadable."""
    path = Path(path)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except sqlite3.Error as exc:
        con.close()
        if access_problem(exc) is None or _writable(path.parent) or not os.access(path, os.R_OK):
            raise
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, timeout=timeout)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        con.close()
        raise
    return con
