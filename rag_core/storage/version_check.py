"""Doctor's consistency checks of the catalog (here, so `health` stays small): two versions of one document in
effect at once, and the chunks Chroma should hold, read only while no writer is at work (`writer_quiet`)."""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from ..settings import Settings
from .sqlite_access import connect_ro
from .store_check import StoreCheck

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def _office_day(stamp: str | None, zone: tzinfo) -> str:
    """'YYYY-MM-DD' of a stored stamp (UTC; one without an offset is UTC too) in the office's zone; its own first ten
    characters when it does not parse. The catalog's `local_day`, which storage may not import (it reads a data dir
    the catalog cannot open): tests/test_fix61_time_doctor.py holds the two to the same verdicts."""
    try:
        moment = datetime.fromisoformat(str(stamp))
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(zone).date().isoformat()
    except (ValueError, OverflowError):
        return str(stamp or "")[:10]


def _zone(name: str | None) -> tzinfo:
    """The office's zone (`Settings.timezone` when None); UTC for a name that is none (the settings check says so)."""
    try:
        return ZoneInfo(name or Settings.timezone)
    except (KeyError, ValueError, OSError):  # ZoneInfoNotFoundError is a KeyError; 'Asia' is tzdata's folder
        return UTC


def version_problems(catalog: Path, timezone: str | None = None) -> list[StoreCheck]:
    """A document with more than one version in effect: a newer current version written without a
    future effective date should have retired every older one (two processes writing at once once
    left both current, each chunk live twice). A version scheduled for later is not counted, nor an older one
    dated after the day that newer version was written: a re-cut whose scheduled version kept its old cut leaves it
    below the in-effect version's copy on purpose, and re-importing as advised retired the scheduled change.

    The catalog's rule (`Catalog.superseded`): the office's day (`timezone`, None: the default setting) at
    `ingested_at` is the day a version was written. The UTC day called a version scheduled for New York's
    tomorrow a second version in effect, and missed a real one written after midnight in Beijing.
    """
    try:
        con = connect_ro(catalog)
        try:
            rows = con.execute(
                "SELECT doc_id, version, effective_date, ingested_at, chunk_count FROM documents "
                "WHERE status='current' ORDER BY doc_id, version"
            ).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return []
    zone = _zone(timezone)
    by_doc: dict[str, list[tuple]] = {}
    for row in rows:
        by_doc.setdefault(row[0], []).append(row)
    checks = []
    for doc_id, versions in by_doc.items():
        immediate = [(v, day) for _, v, eff, at, _ in versions if (eff or "") <= (day := _office_day(at, zone))]
        if not immediate:
            continue
        newest, written = max(immediate)
        extra = [(v, n) for _, v, eff, _, n in versions if v < newest and (eff or "") <= written]
        if extra:
            shown = "、".join(f"v{v}" for v, _ in extra)
            checks.append(StoreCheck(
                catalog.name, "inconsistent",
                f"文档 {doc_id} 有 {len(extra) + 1} 个同时生效的版本（{shown} 和 v{newest}），"
                f"旧版本的 {sum(n for _, n in extra)} 块仍在索引里",
                "把这份文档的文件重新导入一次即可（内容相同也可以），较旧的版本会被停用",
            ))
    return checks


WRITE_LOCK = ".catalog.write-lock"  # the catalog's writer lock (documents.write_lock, `Catalog.writer`), beside it
WRITING = "（应用正在写入，稍后再检查）"  # doctor's note when a writer is at work: its half-written state is no problem
LIVE_CHUNKS = ("SELECT count(*) FROM chunks WHERE (doc_id, version) NOT IN "
               "(SELECT doc_id, version FROM documents WHERE status = 'pending')")


@contextmanager
def writer_quiet(data_dir: Path) -> Iterator[bool]:
    """Hold the catalog's writer lock for the block without waiting: True inside when no writer is at work (or
    nothing can tell), False while one writes. An upload writes its chunks as a pending version before their vectors,
    and makes it current before it retires the older one: doctor read that half-way state as "99 vectors, 118 chunks"
    and "two versions in effect". The lock file is never made here (doctor changes nothing): no file, no writer yet."""
    path = Path(data_dir) / WRITE_LOCK
    try:
        fd = os.open(path, os.O_RDONLY) if fcntl is not None and path.is_file() else None
    except OSError:  # unreadable: nothing can tell, checked as before the lock
        fd = None
    if fd is None:
        yield True
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            quiet = exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)  # others: no flock here
        else:
            quiet = True
        yield quiet
    finally:
        os.close(fd)  # lets go of the flock


def live_chunks(catalog: Path) -> int | None:
    """The catalog's chunks but a pending version's (written before its vectors; a start drops a crash's), or None."""
    try:
        con = connect_ro(catalog)
        try:
            return int(con.execute(LIVE_CHUNKS).fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return None
