"""Why standard answers are held: every reason kept, one row per (answer, document, reason).

An answer resting on two documents can be held by both: one deleted, then the other changed while the answer is
still held. With one row per answer the second reason was dropped, and HR, checking only the first, released an
answer serving a rule the second had withdrawn. Each reason is now its own row, shown together on the page, and a
release is refused when a reason arrived after the page HR acted on was shown (`facade.standard_review`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS standard_holds (
    answer_id TEXT NOT NULL,
    doc_title TEXT NOT NULL,
    doc_audience TEXT NOT NULL,
    held_at TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT 'deleted',
    PRIMARY KEY (answer_id, doc_title, reason)
);
"""
_COLUMNS = "answer_id, doc_title, doc_audience, held_at, reason"


def _one_per_answer(db: sqlite3.Connection) -> bool:
    """Whether `standard_holds` still has the one-row-per-answer key of before stop 55."""
    columns = {r[1]: r[5] for r in db.execute("PRAGMA table_info(standard_holds)")}
    return bool(columns) and sum(1 for pk in columns.values() if pk) == 1


def _leftover(db: sqlite3.Connection) -> bool:
    """Whether the renamed old table is still there (its rows not yet copied)."""
    return bool(db.execute("SELECT 1 FROM sqlite_master WHERE name = 'standard_holds_one_per_answer'").fetchall())


@dataclass(frozen=True)
class Hold:
    """Why a standard answer is not served (until HR has checked it): a document it rests on was deleted, or
    replaced by a version narrowed to fewer readers or without the clause it quotes (`standard_versions`)."""

    doc_title: str
    doc_audience: tuple[str, ...]  # the deleted version's, or the new version's
    held_at: str
    reason: str = "deleted"  # or standard_versions.NARROWED / CHANGED
    effective: str = ""  # a scheduled version's effective day: it holds the answer from then (`standard_pending`)


def hold_of(row: tuple) -> Hold:
    """A stored row (doc_title, doc_audience, held_at, reason[, effective]) as a `Hold`."""
    return Hold(row[0], tuple(a for a in row[1].split(",") if a), *row[2:])


class HoldTable:
    """The `standard_holds` table of a `StandardAnswers` file (its connection and lock)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock):
        self._db, self._lock = db, lock
        if self._outdated():  # read first: an up-to-date file opens without waiting for another writer
            self._migrate()
        db.executescript(SCHEMA)

    def _outdated(self) -> bool:
        """One row per answer (before stop 55), or old rows left beside the new table."""
        return _one_per_answer(self._db) or _leftover(self._db)

    def _migrate(self) -> None:
        """Rename, create, copy and drop in one transaction, checked again under its lock: `executescript` committed
        each step apart, so a process killed mid-copy left the rows stranded under the old name (every held answer
        served again), and two processes opening an old file both renamed. Rows an earlier interruption stranded
        are taken in."""
        db = self._db
        if db.in_transaction:
            db.commit()
        db.execute("BEGIN IMMEDIATE")
        try:
            if _one_per_answer(db):
                db.execute("ALTER TABLE standard_holds RENAME TO standard_holds_one_per_answer")
            db.execute(SCHEMA)
            if _leftover(db):
                old = {r[1] for r in db.execute("PRAGMA table_info(standard_holds_one_per_answer)")}
                reason = "reason" if "reason" in old else "'deleted'"
                db.execute(f"INSERT OR IGNORE INTO standard_holds ({_COLUMNS}) SELECT answer_id, doc_title,"
                           f" doc_audience, held_at, {reason} FROM standard_holds_one_per_answer")
                db.execute("DROP TABLE standard_holds_one_per_answer")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # an interrupted statement may have rolled it back already
                db.execute("ROLLBACK")
            raise

    def add(self, answer_ids: Iterable[str], reasons: dict[str, str] | str, title: str, audience: str,
            at: str) -> None:
        """Hold each answer for this reason (`reasons`: one for all, or by id); the same reason again is re-dated."""
        self._db.executemany(
            f"INSERT OR REPLACE INTO standard_holds ({_COLUMNS}) VALUES (?,?,?,?,?)",
            [(i, title, audience, at, reasons if isinstance(reasons, str) else reasons[i]) for i in answer_ids])

    def all(self) -> dict[str, list[Hold]]:
        """answer id -> every reason it is held, oldest first."""
        with self._lock:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM standard_holds ORDER BY held_at, doc_title, reason").fetchall()
        found: dict[str, list[Hold]] = {}
        for row in rows:
            found.setdefault(row[0], []).append(hold_of(row[1:]))
        return found

    def forget(self, answer_id: str) -> None:
        self._db.execute("DELETE FROM standard_holds WHERE answer_id = ?", (answer_id,))
