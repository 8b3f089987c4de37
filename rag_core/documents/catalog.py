"""SQLite catalog: documents and their versions, chunk texts and their tokens.

Why a catalog beside Chroma: it is the source of truth for which version of a
document is current (versions, effective dates, audiences), and it keeps each
chunk's jieba tokens so the BM25 index is rebuilt on start without
re-tokenising the corpus. A `generation` counter bumps on every change so
another process sharing the store can tell its in-memory index is stale.

Every write is one BEGIN IMMEDIATE transaction (a read inside it sees no other
process's write until it commits), and the version switch reads which versions are
current inside it: two writers of one document leave one current version even
without `writer`, the cross-process lock the indexer holds for a whole write.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from ..errors import RagError
from ..settings import Settings
from ..storage.new_store import create_store
from ..types import Chunk, DocumentInfo
from .deletions import DELETED_AUDIENCE, KEEP_DELETED, history, last_audience
from .write_lock import WriterLock

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL,
    audience TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    chunk_count INTEGER NOT NULL,
    ingested_at TEXT NOT NULL,
    effective_date TEXT,
    status TEXT NOT NULL,          -- pending | current | retired
    PRIMARY KEY (doc_id, version)
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    section TEXT NOT NULL,
    page INTEGER,
    audience TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    overlap INTEGER NOT NULL,
    tokens TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks (doc_id, version);
CREATE INDEX IF NOT EXISTS documents_effective ON documents (effective_date);  -- ODD_DATES reads it, not the rows
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Deleted rows are overwritten (secure_delete): a dropped rating or a deleted policy's text stays gone from the file.
-- Older versions kept ratings here too (table feedback): the facade moves them to the insights log (`old_ratings`).
PRAGMA secure_delete = ON;
"""


SAMPLES_SEEDED = "samples_seeded"  # '1' once the bundled samples were indexed, or the store was in use without them
# At a store's first open with this row: a catalog any write ever changed (generation > 0) was in use, even when HR
# has since deleted every document, so its samples never come back; a fresh one waits for `ensure_samples`.
SAMPLES_AT_OPEN = """
INSERT OR IGNORE INTO meta SELECT ?, CASE WHEN EXISTS (SELECT 1 FROM documents)
    OR EXISTS (SELECT 1 FROM meta WHERE key='generation' AND CAST(value AS INTEGER) > 0) THEN '1' ELSE '0' END
"""
# A version number is never given twice: a chunk id (doc@vN#k) a search read before a delete names no other text
# after it. A store from before this row numbers as before until its first delete writes it.
VERSIONS_USED = "versions_used:"  # + doc id -> the highest version number its deleted rows had
KEEP_VERSIONS_USED = """INSERT INTO meta SELECT ?, MAX(version) FROM documents WHERE doc_id=? HAVING COUNT(*) > 0
ON CONFLICT(key) DO UPDATE SET value = MAX(CAST(meta.value AS INTEGER), CAST(excluded.value AS INTEGER))"""
NEXT_VERSION = """SELECT MAX(IFNULL((SELECT MAX(version) FROM documents WHERE doc_id=?), 0),
    IFNULL((SELECT CAST(value AS INTEGER) FROM meta WHERE key=?), 0))"""
# Releases before c0800d5 stored 生效日期 as typed (20261204, 2026-W49-5): compared as text with the office's ISO day,
# such a version waited until 1 January. Rewritten at open; once done, this finds no row and nothing is written.
ODD_DATES = """SELECT rowid, effective_date FROM documents WHERE effective_date IS NOT NULL
    AND NOT effective_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'"""


def _aud(text: str) -> tuple[str, ...]:
    return tuple(a for a in text.split(",") if a)


def _iso_day(typed: object) -> str | None:
    try:
        return date.fromisoformat(str(typed)).isoformat()
    except ValueError:
        return None


Readable = frozenset[str] | None  # audience labels a reader may see; None: every label


def readable_set(who: str | Iterable[str] | None) -> Readable:
    """A reader's audience labels: a single label means that label plus "all"; None means everything."""
    if who is None:
        return None
    if isinstance(who, str):
        return frozenset({"all", who})
    return frozenset(who)


def visible_to(audience: Iterable[str], readable: str | Iterable[str] | None) -> bool:
    """A document is readable when one of its audience labels is among the reader's (None: all)."""
    labels = readable_set(readable)
    return labels is None or not labels.isdisjoint(audience)


def _utc_now() -> datetime:
    return datetime.now(UTC)  # one clock for `office_day`: tests pin it here


def utc_stamp() -> str:
    """Now as the ISO text versions are stamped with (`ingested_at`): the clock `office_day` reads."""
    return _utc_now().isoformat(timespec="seconds")


def office_day(timezone: str | None = None) -> date:
    """Today in the office's time zone (`Settings.timezone`): effective dates are the office's calendar days.

    The server's own day (`date.today()`) made a version dated today take effect at 08:00 Beijing on a UTC host."""
    return _utc_now().astimezone(ZoneInfo(timezone or Settings.timezone)).date()


def in_zone(stamp: str, zone: tzinfo | None) -> datetime | None:
    """A stored ISO stamp as the office reads it, in `zone`: rows are stamped in UTC, so a stamp without an
    offset is UTC too; `zone` None keeps the stamp's own clock. None when it does not parse."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    if zone is None:
        return moment
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(zone)


def local_day(stamp: str, zone: tzinfo | None) -> str:
    """'YYYY-MM-DD' of a stored ISO stamp in `zone` (the one owner: catalog dates, insights' per-day counts and
    filters); the stamp's own date when it does not parse."""
    moment = in_zone(stamp, zone)
    return str(stamp)[:10] if moment is None else moment.date().isoformat()


def office_today(timezone: str | None = None) -> str:
    """`office_day` as the ISO text effective dates are stored and compared as."""
    return office_day(timezone).isoformat()


def effective_key(info: DocumentInfo) -> tuple[str, int]:
    """Which of two versions in effect wins: the later effective date (none: since written), then the higher number."""
    return info.effective_date or "", info.version


def versions_in_effect(live: Iterable[DocumentInfo], day: str) -> dict[str, DocumentInfo]:
    """Per document, the live version in effect on `day` (ISO date), chosen for every reader alike.

    The latest effective date on or before `day` wins (ties: the higher version): a correction scheduled
    for an earlier day than a version uploaded before it takes effect first and is replaced on the later
    day. Search, the documents page and the version history all read "the version in effect" from here: a
    scheduled version for a narrower audience retires the older one for everyone on its day, as an
    immediate upload does."""
    chosen: dict[str, DocumentInfo] = {}
    for info in live:
        if (info.effective_date or "") <= day and (
            info.doc_id not in chosen or effective_key(info) > effective_key(chosen[info.doc_id])
        ):
            chosen[info.doc_id] = info
    return chosen


class Catalog:
    def __init__(self, path: Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        create_store(path, SCHEMA)  # whole or not at all: a 0-byte catalog stops the start as a lost one
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._db.execute(SAMPLES_AT_OPEN, (SAMPLES_SEEDED,))
        self._db.commit()
        self.lock = threading.RLock()
        self.writer = WriterLock(Path(path).with_name(".catalog.write-lock"))  # hidden: backups skip it
        if odd := [(day, rowid, typed) for rowid, typed in self._db.execute(ODD_DATES) if (day := _iso_day(typed))]:
            with self.transaction() as db:  # unless another process rewrote it first; an unparseable one stays
                db.executemany("UPDATE documents SET effective_date=? WHERE rowid=? AND effective_date=?", odd)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")  # the write lock now, so what is read here stays true
                yield self._db
                self._db.execute(
                    "INSERT INTO meta VALUES ('generation', '1') "
                    "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                )
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    def generation(self) -> int:
        with self.lock:
            row = self._db.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        return int(row[0]) if row else 0

    def get_meta(self, key: str) -> str | None:
        with self.lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
            self._db.commit()

    def samples_seeded(self) -> bool:
        """Whether the bundled samples were ever indexed here (or the store was in use without them)."""
        return self.get_meta(SAMPLES_SEEDED) == "1"

    def mark_samples_seeded(self) -> None:
        self.set_meta(SAMPLES_SEEDED, "1")

    # -- documents ---------------------------------------------------------
    def _info(self, row) -> DocumentInfo:
        return DocumentInfo(*row[:4], _aud(row[4]), *row[5:])  # type: ignore[arg-type]  # in the fields' order

    _DOC_COLS = "doc_id, title, source, version, audience, chunk_count, ingested_at, content_hash, effective_date, status"

    def _read(self, sql: str, params: Sequence[object] = ()) -> list:
        with self.lock:
            return self._db.execute(sql, params).fetchall()

    def versions(self, doc_id: str) -> list[DocumentInfo]:
        return [self._info(r) for r in self._read(f"SELECT {self._DOC_COLS} FROM documents WHERE doc_id=? ORDER BY version",
                                                  (doc_id,))]

    def live_versions(self) -> list[DocumentInfo]:
        """Versions whose chunks are in the indexes (current ones, possibly several per doc)."""
        rows = self._read(f"SELECT {self._DOC_COLS} FROM documents WHERE status='current' ORDER BY doc_id, version")
        return [self._info(r) for r in rows]

    def next_version(self, doc_id: str) -> int:
        with self.lock:
            row = self._db.execute(NEXT_VERSION, (doc_id, VERSIONS_USED + doc_id)).fetchone()
        return row[0] + 1

    def pending(self) -> list[DocumentInfo]:
        return [self._info(r) for r in self._read(f"SELECT {self._DOC_COLS} FROM documents WHERE status='pending'")]

    def insert_version(self, info: DocumentInfo, chunks: list[Chunk], tokens: list[list[str]]) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO documents VALUES (?,?,?,?,?,?,?,?,?,?)",
                (info.doc_id, info.version, info.title, info.source, ",".join(info.audience), info.content_hash,
                 info.chunk_count, info.ingested_at, info.effective_date, "pending"),
            )
            db.executemany(
                "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (c.chunk_id, c.doc_id, c.version, c.index, c.text, c.source, c.title, c.section, c.page,
                     ",".join(c.audience), c.content_hash, c.ingested_at, c.overlap_chars, json.dumps(t, ensure_ascii=False))
                    for c, t in zip(chunks, tokens)
                ],
            )

    def switch_current(
        self, doc_id: str, version: int, *, supersedes: bool, today: str | None = None
    ) -> tuple[list[DocumentInfo], int | None]:
        """Make a pending version current, in one transaction with reading what else is current.

        Returns (the older current versions it supersedes, which the caller retires; the number of a
        newer version already in effect that supersedes this one, or None). `supersedes` is False for
        a version scheduled for a later date; `today` is the office's day (`office_today`). Raises RagError when
        the pending row is gone.
        """
        today = today or office_today()
        with self.transaction() as db:
            row = db.execute("SELECT status FROM documents WHERE doc_id=? AND version=?", (doc_id, version)).fetchone()
            if row is None or row[0] != "pending":
                raise RagError(f"写入期间文档 {doc_id} 的 v{version} 被另一个进程清除了，请重新上传")
            db.execute("UPDATE documents SET status='current' WHERE doc_id=? AND version=?", (doc_id, version))
            rows = db.execute(
                f"SELECT {self._DOC_COLS} FROM documents WHERE doc_id=? AND status='current' AND version<>? ORDER BY version",
                (doc_id, version),
            ).fetchall()
        others = [self._info(r) for r in rows]
        older = [v for v in others if v.version < version] if supersedes else []
        newer = [v.version for v in others if v.version > version and (v.effective_date or "") <= today]
        return older, (max(newer) if newer else None)

    def superseded(self, doc_id: str, timezone: str | None = None) -> list[DocumentInfo]:
        """Current versions a newer current one should have retired when it was written (two processes writing at
        once once left both current): older than the newest version written without a future effective date, and
        not dated after the day it was written. The office's day (`timezone`) at `ingested_at` is that day (the UTC
        day made a version for the office's tomorrow immediate west of UTC). A version still scheduled then was kept
        on purpose (a re-cut whose scheduled version kept its old cut), also once its day came: re-importing to
        retire it deleted the scheduled change. `storage.version_check.version_problems` holds the same rule."""
        zone = ZoneInfo(timezone or Settings.timezone)
        live = [v for v in self.versions(doc_id) if v.status == "current"]
        written = {v.version: local_day(v.ingested_at, zone) for v in live}
        immediate = [v.version for v in live if (v.effective_date or "") <= written[v.version]]
        newest = max(immediate, default=None)
        return [v for v in live if newest is not None and v.version < newest
                and (v.effective_date or "") <= written[newest]]

    def set_status(self, doc_id: str, version: int, status: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE documents SET status=? WHERE doc_id=? AND version=?", (status, doc_id, version))

    def delete_chunks(self, doc_id: str, version: int | None = None) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM chunks WHERE doc_id=?1 AND (?2 IS NULL OR version=?2)", (doc_id, version))

    def delete_document(self, doc_id: str, today: str | None = None) -> None:
        """Remove every version; the audience of the one in effect on `today` (the office's day) is kept with the
        time (`deletions`: its readers stay its readers in the insights), and so are the version numbers it used."""
        with self.transaction() as db:
            db.execute(KEEP_VERSIONS_USED, (VERSIONS_USED + doc_id, doc_id))  # before its rows go
            rows = db.execute(f"SELECT {self._DOC_COLS} FROM documents WHERE doc_id=? AND status='current'", (doc_id,))
            if last := versions_in_effect(map(self._info, rows.fetchall()), today or office_today()).get(doc_id):
                db.execute(KEEP_DELETED, (DELETED_AUDIENCE + doc_id, utc_stamp(), ",".join(last.audience)))
            db.execute("DELETE FROM chunks WHERE doc_id=?", (doc_id,))
            db.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))

    def deleted_audience(self, doc_id: str) -> tuple[str, ...] | None:
        """The audience `doc_id` had when last in effect before it was deleted (None: never deleted in effect)."""
        return last_audience(self.get_meta(DELETED_AUDIENCE + doc_id))

    def deletions(self, doc_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """(deleted at, audience in effect then) of each delete of `doc_id`, oldest first (`deletions.history`)."""
        return history(self.get_meta(DELETED_AUDIENCE + doc_id))

    def discard_version(self, doc_id: str, version: int) -> None:  # a pending version: no search read its ids
        with self.transaction() as db:
            db.execute("DELETE FROM chunks WHERE doc_id=? AND version=?", (doc_id, version))
            db.execute("DELETE FROM documents WHERE doc_id=? AND version=?", (doc_id, version))

    # -- chunks -------------------------------------------------------------
    _CHUNK_COLS = "chunk_id, doc_id, version, idx, text, source, title, section, page, audience, content_hash, ingested_at, overlap"

    def _chunk(self, row) -> Chunk:
        return Chunk(*row[:9], _aud(row[9]), *row[10:])  # type: ignore[arg-type]  # in the fields' order

    def chunks_of(self, doc_id: str, version: int | None = None) -> list[Chunk]:
        rows = self._read(f"SELECT {self._CHUNK_COLS} FROM chunks WHERE doc_id=?1 AND (?2 IS NULL OR version=?2) "
                          "ORDER BY version, idx", (doc_id, version))
        return [self._chunk(r) for r in rows]

    def chunks_by_id(self, chunk_ids: Iterable[str]) -> dict[str, Chunk]:
        ids = list(chunk_ids)
        out: dict[str, Chunk] = {}
        with self.lock:
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                marks = ",".join("?" * len(part))
                for row in self._db.execute(f"SELECT {self._CHUNK_COLS} FROM chunks WHERE chunk_id IN ({marks})", part):
                    out[row[0]] = self._chunk(row)
        return out

    def chunk_count(self) -> int:
        with self.lock:
            return self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def all_chunks(self) -> list[Chunk]:
        return [self._chunk(r) for r in self._read(f"SELECT {self._CHUNK_COLS} FROM chunks ORDER BY doc_id, version, idx")]

    def versions_mentioning(self, words: Sequence[str]) -> set[tuple[str, int]]:
        """(doc_id, version) of every version whose text, title or section contains one of `words`.

        One plain scan of the chunks (the keyword index holds jieba's tokens, and a word the
        tokenizer split differently at ingest must still be found); the caller caches it.
        """
        if not words:
            return set()
        test = " OR ".join("instr(text, ?) > 0 OR instr(title, ?) > 0 OR instr(section, ?) > 0" for _ in words)
        rows = self._read(f"SELECT DISTINCT doc_id, version FROM chunks WHERE {test}", [w for w in words for _ in range(3)])
        return {(doc_id, version) for doc_id, version in rows}

    def token_rows(self) -> Iterator[tuple[str, list[str]]]:
        """(chunk_id, tokens) of every live chunk, for rebuilding BM25 without jieba."""
        rows = self._read("SELECT c.chunk_id, c.tokens FROM chunks c JOIN documents d "
                          "ON c.doc_id=d.doc_id AND c.version=d.version WHERE d.status='current'")
        for cid, tokens in rows:
            yield cid, json.loads(tokens)

    def close(self) -> None:
        with self.lock:
            self._db.close()
