"""Standard answers (标准答复): HR's authoritative answer to a recurring question.

The entries live in SQLite (the source of truth, with hit counts); each wording (the standard question and any
variants, e.g. the wordings of a gap group) is a vector in its own Chroma collection, always given our own embeddings
like the policy chunks. A question is answered with an entry when `matching.is_match` holds for one of its wordings;
the collection is rebuilt from SQLite when the embedding model changes or the two disagree.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NoReturn

import numpy as np

from ..documents.catalog import visible_to
from ..errors import RagError, VectorServerDown
from ..search.chroma_server import server_lost
from ..storage.new_store import create_store
from ..text.shown import shown
from .matching import STANDARD_AGREEMENT, STANDARD_COSINE
from .records import StandardAnswer, StandardMatch
from .standard_checked import BasisCheck
from .standard_fields import MAX_CHARS, MAX_CLAUSE_CHARS, MAX_LINES, StandardAnswerError, standard_fields  # noqa: F401
from .standard_holds import Hold, HoldTable, hold_of
from .standard_pending import PendingHolds
from .standard_search import StandardIndexUnreadable, nearest_match
from .standard_unwritable import StandardIndexUnwritable
from .standard_versions import resting_on

SCHEMA = """
CREATE TABLE IF NOT EXISTS standard_answers (
    id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    clauses TEXT NOT NULL,
    variants TEXT NOT NULL,
    audience TEXT NOT NULL,
    author TEXT NOT NULL,
    created_at TEXT NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0,
    last_hit_at TEXT
);
CREATE TABLE IF NOT EXISTS standard_sources (
    answer_id TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    PRIMARY KEY (answer_id, doc_id)
);
"""


def _fresh_id() -> str:
    """A new answer id no masker reads as personal data: about one 10-character hex id in 1,300 is all digits, and
    one starting with 0 is a landline to the masker (0869015634): the audit row and the CLI showed [座机号]."""
    while True:
        candidate = uuid.uuid4().hex[:10]
        if shown(candidate) == candidate:  # masked by today's masker: unchanged
            return candidate


class StandardAnswers:
    def __init__(self, path: Path, client, collection: str, model_id: str,
                 embed: Callable[[Sequence[str]], np.ndarray]):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        create_store(path, SCHEMA)  # whole or not at all: a full disk left a 0-byte file read as a cut store
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        self._db.executescript(SCHEMA)
        self._lock = threading.RLock()
        self.held = HoldTable(self._db, self._lock)  # every reason an answer is held, each its own row
        self.pending = PendingHolds(self._db, self._lock)  # holds that start when a scheduled version takes effect
        self.basis = BasisCheck(self._db, self._lock, self.held)  # stored answers judged by today's rule yet?
        self._db.commit()
        self._client, self._name, self.model_id, self._embed = client, collection, model_id, embed
        self.cosine_floor, self.agreement_floor = STANDARD_COSINE, STANDARD_AGREEMENT
        self._collection = None
        self._stale = False  # a Chroma error on the collection: rebuilt from the table when next opened
        try:
            self._live()
        except StandardIndexUnreadable:  # the entries stay readable; the rebuild is tried again at the next use
            pass

    def _live(self):
        """The wordings' collection, opened (and rebuilt if it lags the table) once the Chroma server answers;
        None while a server cannot be reached: questions then get no standard answer, never an error. Another
        Chroma error (a rebuild that cannot write) is `StandardIndexUnreadable`, and the rebuild is tried again
        at the next use, not here: one try per call, whatever the error."""
        if self._collection is None:
            try:
                self._collection = self._open()
                entries = self.list()
                if (self._stale or (self._collection.metadata or {}).get("embedding_model") != self.model_id
                        or self._held_wordings() != _expected(entries)):  # not the count: a restore of as many
                    self._rebuild(entries)
                    self._stale = False
            except Exception as exc:
                self._collection = None
                if server_lost(exc):
                    return None
                if isinstance(exc, sqlite3.Error | RagError):
                    raise
                self._stale = True
                raise StandardIndexUnreadable() from exc
        return self._collection

    def _open(self):
        return self._client.get_or_create_collection(
            self._name, metadata={"embedding_model": self.model_id},
            configuration={"hnsw": {"space": "cosine"}}, embedding_function=None,
        )

    def _held_wordings(self) -> set[tuple[str, str]]:
        got = self._collection.get(include=["metadatas"])
        return {(i, (m or {}).get("wording", "")) for i, m in zip(got["ids"], got["metadatas"] or [], strict=False)}

    def _rebuild(self, entries: list[StandardAnswer]) -> None:
        """Every entry written straight to a new collection: never through `_write`, whose retry rebuilds, so an
        error that stays (a read-only database) ends the rebuild instead of recursing into another."""
        try:
            self._client.delete_collection(self._name)
        except Exception:  # noqa: BLE001 - absent collection is fine
            pass
        self._collection = self._open()
        for entry in entries:
            self._upsert(self._collection, entry)

    def _upsert(self, collection, entry: StandardAnswer, vectors: np.ndarray | None = None) -> None:
        texts = _wordings(entry)
        collection.upsert(ids=[f"{entry.id}:{i}" for i in range(len(texts))], metadatas=[{"answer_id": entry.id,
                          "wording": t} for t in texts], embeddings=self._embed(texts) if vectors is None else vectors)

    def _write(self, change: Callable, *, again: bool = True) -> None:
        """`change` applied to the wordings' collection; a Chroma server that cannot be reached is one Chinese
        line (VectorServerDown), and the collection is opened again at the next use. Another Chroma error (its
        files changed under this process, as by a CLI write beside the app) rebuilds the collection from the
        table once and applies `change` again; when that fails too, it is `StandardIndexUnwritable` (Chinese:
        nothing was saved), not Chroma's English words."""
        try:
            live = self._collection if self._collection is not None else self._live()
            if live is None:
                raise ConnectionError("the Chroma server did not answer")
            change(live)
        except Exception as exc:
            if not server_lost(exc):
                if isinstance(exc, StandardIndexUnreadable):  # the rebuild failed: said as a write not saved
                    raise StandardIndexUnwritable() from exc
                if isinstance(exc, sqlite3.Error | RagError):
                    raise
                self._collection, self._stale = None, True
                if not again:
                    raise StandardIndexUnwritable() from exc
                self._write(change, again=False)
                return
            self._collection = None
            settings = self._client.get_settings()
            raise VectorServerDown(f"{settings.chroma_server_host}:{settings.chroma_server_http_port}") from exc

    # -- entries -----------------------------------------------------------
    def add(self, question: str, answer: str, *, author: str, created_at: str, clauses: Sequence[str] = (),
            variants: Sequence[str] = (), audience: Sequence[str] = ("all",), sources: Sequence[str] = (),
            check: Callable[[], None] | None = None) -> StandardAnswer:
        """Store and index one entry (the facade checks the typed fields before masking; they are checked again).
        `sources`: ids of the documents it was written from (a gap's nearest clause), held for review on delete.
        `check` raises to refuse (a duplicate), in one write transaction with the insert, so two adds at once, in
        two sessions or two processes, never both store one answer (reviews 382 #3, 383 #6)."""
        question, answer, clauses, variants = standard_fields(question, answer, clauses, variants)
        entry = StandardAnswer(
            id=_fresh_id(), question=question, answer=answer, clauses=clauses,
            variants=list(dict.fromkeys(v for v in variants if v != question)),
            audience=tuple(audience) or ("all",), author=author, created_at=created_at,
        )
        vectors = self._embed(_wordings(entry))  # outside the lock: questions read the store meanwhile (review 383)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")  # another process's add waits here, then its check sees this row
            try:  # every step to the commit: a failed one (a busy file) leaves no transaction open (review 389 #1)
                if check is not None:
                    check()
                self._write(lambda col: self._upsert(col, entry, vectors))  # first: no row is left without vectors
                self._db.execute(
                    "INSERT INTO standard_answers (id, question, answer, clauses, variants, audience, author,"
                    " created_at) VALUES (?,?,?,?,?,?,?,?)",
                    (entry.id, question, answer, json.dumps(entry.clauses, ensure_ascii=False),
                     json.dumps(entry.variants, ensure_ascii=False), ",".join(entry.audience), author, created_at),
                )
                self._db.executemany("INSERT OR IGNORE INTO standard_sources (answer_id, doc_id) VALUES (?,?)",
                                     [(entry.id, d) for d in dict.fromkeys(sources) if d])
                self._db.commit()
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._db.rollback()
                raise
        return entry

    def list(self) -> list[StandardAnswer]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, question, answer, clauses, variants, audience, author, created_at, hits, last_hit_at"
                " FROM standard_answers ORDER BY created_at DESC, id"
            ).fetchall()
        return [
            # masked by today's masker as read out: an entry an older version kept may hold what its masker missed
            StandardAnswer(id=r[0], question=shown(r[1]), answer=shown(r[2]), clauses=[shown(c) for c in json.loads(r[3])],
                           variants=[shown(v) for v in json.loads(r[4])],
                           audience=tuple(a for a in r[5].split(",") if a), author=r[6], created_at=r[7],
                           hits=r[8], last_hit_at=r[9])
            for r in rows
        ]

    def get(self, answer_id: str) -> StandardAnswer:
        found = next((e for e in self.list() if e.id == answer_id), None)
        if found is None:
            raise StandardAnswerError(f"没有编号为 {answer_id} 的标准答复")
        return found

    def delete(self, answer_id: str) -> None:
        entry = self.get(answer_id)
        self._write(lambda col: col.delete(ids=[f"{entry.id}:{i}" for i in range(len(_wordings(entry)))]))
        with self._lock:
            for table, column in (("standard_answers", "id"), ("standard_sources", "answer_id")):
                self._db.execute(f"DELETE FROM {table} WHERE {column} = ?", (answer_id,))
            self.held.forget(answer_id)
            self.pending.forget_answer(answer_id)
            self._db.commit()
            self.basis.forget(answer_id)

    # -- answers resting on a deleted document -----------------------------
    def hold_resting_on(self, doc_id: str, titles: Sequence[str], audience: Sequence[str], at: str,
                        live: Sequence[tuple[str, str, Sequence[str]]] = (), also: Iterable[str] = ()) -> list[str]:
        """Stop serving every entry written from `doc_id` until HR has checked it (`release`); nothing is deleted.
        Returns the ids held for it, an entry already held for another reason too (each reason is kept).

        `live`: (doc_id, title, audience) of the documents still live. An entry still rests on a live document
        when each reference to the deleted one (`references`) also names a live document that every reader of the
        entry can read, and a recorded source is kept only by a live document with the identical title (the copy
        HR kept after deleting a duplicate), which becomes the recorded source. `also`: entries resting on it
        without naming it (`standard_versions.lost_with`), held too."""
        with self._lock:
            resting, moved = resting_on(self.list(), self.recorded_for(doc_id), doc_id, titles, live, also)
            title = next((t for t in titles if t and t.strip()), doc_id)
            self.held.add(resting, "deleted", title, ",".join(audience), at)
            self._db.execute("DELETE FROM standard_sources WHERE doc_id = ?", (doc_id,))
            self._db.executemany("INSERT OR IGNORE INTO standard_sources (answer_id, doc_id) VALUES (?,?)", moved)
            self.pending.forget_document(doc_id)
            self._db.commit()
        return resting

    def sources_of(self, answer_id: str) -> list[str]:
        """The documents the entry is recorded as written from."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT doc_id FROM standard_sources WHERE answer_id = ?", (answer_id,))]

    def recorded_for(self, doc_id: str) -> set[str]:
        """The entries recorded as written from `doc_id`."""
        with self._lock:
            return {r[0] for r in self._db.execute("SELECT answer_id FROM standard_sources WHERE doc_id = ?", (doc_id,))}

    def hold(self, reasons: dict[str, str], hold: Hold, starts: tuple[str, int, str] | None = None) -> list[str]:
        """Stop serving the entries in `reasons` (id -> `Hold.reason`) until HR has checked them; the ids held for
        it. An entry already held gets this reason too: releasing it after checking only the first would serve a
        clause this version withdrew.

        `starts` (doc_id, version, UTC instant): from when that scheduled version takes effect, not now."""
        audience = ",".join(hold.doc_audience)
        with self._lock:
            if starts is not None:
                self.pending.add(reasons, reasons, *starts, hold.effective, hold.doc_title, audience, hold.held_at)
            else:
                self.held.add(reasons, reasons, hold.doc_title, audience, hold.held_at)
            self._db.commit()
        return list(reasons)

    def hold_reasons(self) -> dict[str, list[Hold]]:
        """Every reason each entry is not served: held now, or by a scheduled version that has taken effect, or by
        a judgement of the stored answers that could not be written to a read-only file (`BasisCheck.kept`)."""
        with self._lock:
            found = self.held.all()
            due = self.pending.due()
        for answer_id, row in due.items():
            found.setdefault(answer_id, []).append(hold_of(row[1:]))
        for answer_id, holds in self.basis.kept().items():
            found.setdefault(answer_id, []).extend(h for h in holds if h not in found.get(answer_id, []))
        return found

    def readable_ids(self, readable: frozenset[str] | None) -> set[str]:
        """The entries a reader of `readable` (None: all labels) may see: their audience, every document one is held for."""
        holds = self.hold_reasons()
        return {e.id for e in self.list() if visible_to(e.audience, readable)
                and all(visible_to(hold.doc_audience, readable) for hold in holds.get(e.id, []))}

    def holds(self) -> dict[str, Hold]:
        """The entries not served, by id, with the first reason (`hold_reasons`: all of them)."""
        return {answer_id: reasons[0] for answer_id, reasons in self.hold_reasons().items()}

    def release(self, answer_id: str) -> None:
        """HR has checked the entry against every reason it was held for: it is served again."""
        self.get(answer_id)
        with self._lock:
            self.held.forget(answer_id)
            self.pending.release(answer_id)
            self._db.commit()
            self.basis.forget(answer_id)

    def count_hit(self, answer_id: str, at: str) -> None:
        """One more hit; not counted in a read-only file (the answer is served all the same: a count is not worth
        an employee getting the policy search instead of HR's answer)."""
        with self._lock:
            try:
                self._db.execute("UPDATE standard_answers SET hits = hits + 1, last_hit_at = ? WHERE id = ?",
                                 (at, answer_id))
                self._db.commit()
            except sqlite3.OperationalError as exc:
                if self._db.in_transaction:
                    self._db.rollback()
                if "readonly" not in str(exc):
                    raise

    # -- matching ----------------------------------------------------------
    def count(self) -> int:
        """Stored wordings (0: nothing to match, so no question needs embedding for it)."""
        try:
            return (live := self._live()) and live.count() or 0
        except Exception as exc:
            self._collection = None  # reopened at the next question
            if not server_lost(exc):
                self._unreadable(exc)
            return 0

    def match(self, question: str, vector: np.ndarray, visible: Callable[[tuple[str, ...]], bool]) -> StandardMatch | None:
        """The entry whose wording passes the rule with the highest cosine, among those `visible` allows and not
        held (a document it rests on was deleted); only those are searched (`standard_search`), so the wordings of
        entries the reader is not served never crowd out the one meant for them. None at all while the stored
        answers are still to be judged by today's rule for what an answer rests on (`standard_checked`; a judgement
        a read-only file could not record holds in this process)."""
        if self.basis.due():
            return None
        held = self.holds()
        served = {e.id: e for e in self.list() if e.id not in held and visible(e.audience)}
        try:
            if (live := self._live()) is None:
                return None
            return nearest_match(live, question, vector, served,
                                 served_wordings=sum(len(_wordings(e)) for e in served.values()),
                                 cosine_floor=self.cosine_floor, agreement_floor=self.agreement_floor)
        except Exception as exc:
            self._collection = None
            if not server_lost(exc):
                self._unreadable(exc)
            return None

    def _unreadable(self, exc: Exception) -> NoReturn:
        """A Chroma error that is not a lost server: the handle is dropped and the collection rebuilt from the table
        when next opened (reopening alone meets the same error in this process). The table's own damage (SQLite)
        and the engine's errors go on as they are: they name the file and what to do."""
        if isinstance(exc, sqlite3.Error | RagError):
            raise exc
        self._collection, self._stale = None, True
        raise StandardIndexUnreadable() from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _wordings(entry: StandardAnswer) -> list[str]:
    return [entry.question, *entry.variants]


def _expected(entries: list[StandardAnswer]) -> set[tuple[str, str]]:
    """The (id, wording) pairs the collection holds for `entries` (what a restore of other entries changes)."""
    return {(f"{e.id}:{i}", text) for e in entries for i, text in enumerate(_wordings(e))}
