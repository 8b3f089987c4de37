"""Holds that start on a day: a scheduled version that no longer supports a standard answer holds it from then.

A version uploaded with a later effective date changes nothing until its day, so the answers it withdraws
(`standard_versions.outdated`) stay served until then. Nothing runs on that day, so the check is made at upload
and its outcome kept here, keyed by the scheduled version: a row counts as a hold once its start (the office's
midnight of the effective day, as a UTC instant) has passed, which costs serving one small read. A row is dropped
when its version will no longer take effect (retired, or replaced before its day: `keep_versions`), or when the
document is deleted (which holds the answer at once) or the answer is deleted or released.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from ..documents.catalog import utc_stamp

SCHEMA = """
CREATE TABLE IF NOT EXISTS standard_pending_holds (
    answer_id TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    starts_at TEXT NOT NULL,
    effective TEXT NOT NULL,
    doc_title TEXT NOT NULL,
    doc_audience TEXT NOT NULL,
    held_at TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (answer_id, doc_id, version)
);
"""
Row = tuple[str, str, str, str, str, str]  # answer_id, doc_title, doc_audience, held_at, reason, effective


def office_midnight(day: str, timezone: str) -> str:
    """The UTC instant (ISO, as `utc_stamp`) at which the office's `day` begins: when a version dated `day` is in effect."""
    start = datetime.combine(date.fromisoformat(day), time(), ZoneInfo(timezone))
    return start.astimezone(UTC).isoformat(timespec="seconds")


def _passed(stamp: str, now: datetime) -> bool:
    try:
        return datetime.fromisoformat(stamp) <= now
    except ValueError:  # a damaged row counts as started: holding too early is safer than serving a withdrawn answer
        return True


class PendingHolds:
    """The `standard_pending_holds` table of a `StandardAnswers` file (its connection and lock)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock):
        self._db, self._lock = db, lock
        db.executescript(SCHEMA)

    def add(self, ids: Iterable[str], reasons: dict[str, str], doc_id: str, version: int, starts_at: str,
            effective: str, title: str, audience: str, held_at: str) -> None:
        """Hold each of `ids` (why: `reasons`) from `starts_at`, when `doc_id` v`version` takes effect."""
        self._db.executemany(
            "INSERT OR REPLACE INTO standard_pending_holds VALUES (?,?,?,?,?,?,?,?,?)",
            [(i, doc_id, version, starts_at, effective, title, audience, held_at, reasons[i]) for i in ids])

    def due(self) -> dict[str, Row]:
        """answer id -> the started row (the earliest start when several have)."""
        now = datetime.fromisoformat(utc_stamp())
        with self._lock:
            rows = self._db.execute(
                "SELECT answer_id, doc_title, doc_audience, held_at, reason, effective, starts_at"
                " FROM standard_pending_holds ORDER BY starts_at DESC").fetchall()
        return {r[0]: tuple(r[:6]) for r in rows if _passed(r[6], now)}  # type: ignore[misc]

    def release(self, answer_id: str) -> None:
        """HR checked the answer: the started rows go; one for a version still to come stays."""
        started = [r for r in self._db.execute(
            "SELECT doc_id, version, starts_at FROM standard_pending_holds WHERE answer_id = ?", (answer_id,))
            if _passed(r[2], datetime.fromisoformat(utc_stamp()))]
        self._db.executemany("DELETE FROM standard_pending_holds WHERE answer_id = ? AND doc_id = ? AND version = ?",
                             [(answer_id, d, v) for d, v, _ in started])

    def forget_answer(self, answer_id: str) -> None:
        self._db.execute("DELETE FROM standard_pending_holds WHERE answer_id = ?", (answer_id,))

    def forget_document(self, doc_id: str) -> None:
        """The document was deleted: its answers are held now (`hold_resting_on`), not on a later day."""
        self._db.execute("DELETE FROM standard_pending_holds WHERE doc_id = ?", (doc_id,))

    def keep_versions(self, doc_id: str, versions: set[int]) -> None:
        """Drop the rows of `doc_id`'s versions other than `versions` (the ones that will still take effect)."""
        with self._lock:
            known = {r[0] for r in self._db.execute(
                "SELECT DISTINCT version FROM standard_pending_holds WHERE doc_id = ?", (doc_id,))}
            self._db.executemany("DELETE FROM standard_pending_holds WHERE doc_id = ? AND version = ?",
                                 [(doc_id, v) for v in known - versions])
            self._db.commit()

    def move(self, doc_id: str, old: int, new: int) -> None:
        """Re-indexing wrote v`old` again as v`new` (same text and day): its rows follow it."""
        with self._lock:
            self._db.execute("UPDATE OR REPLACE standard_pending_holds SET version = ? WHERE doc_id = ? AND version = ?",
                             (new, doc_id, old))
            self._db.commit()
