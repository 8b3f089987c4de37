"""The insights database: asked questions (with retention) and rated answers (with review state).

One SQLite file under the data dir. Texts arrive masked (the facade redacts them first); vectors are kept only for
questions that may become gaps, so the gap page needs no model call per stored question."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ..storage.new_store import create_store
from ..storage.row_ids import sqlite_int
from ..text.shown import shown, shown_trace
from .audiences import UNKNOWN
from .conversation_rows import ConversationRows
from .conversation_rows import TurnFeedback as TurnFeedback  # re-exported: read from here before it moved
from .records import GAP_OUTCOMES, PERSON, TRAFFIC, WEAK_OUTCOME, FeedbackEntry, GapGroup, GapItem
from .rows import gap_item, without_question
from .told import scrub_told

SCHEMA = """
CREATE TABLE IF NOT EXISTS questions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    asked_at TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    question TEXT NOT NULL,
    outcome TEXT NOT NULL,            -- answered | zero_hit | refused | weak | standard
    hit_count INTEGER NOT NULL,
    cited_docs TEXT NOT NULL,         -- JSON list of doc ids quoted in the answer
    nearest TEXT NOT NULL,            -- JSON: the closest clause found (gap questions)
    standard_id TEXT,
    model TEXT,
    vector BLOB,
    traffic TEXT NOT NULL DEFAULT 'person',  -- person | eval | test (records.TRAFFIC)
    conversation TEXT,                -- the turn asked, when it was kept in a conversation: what a 👎 rates
    turn INTEGER
);
CREATE INDEX IF NOT EXISTS questions_time ON questions (asked_at);
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    user_id TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    rating INTEGER NOT NULL,
    reason TEXT NOT NULL,
    comment TEXT NOT NULL,
    docs TEXT NOT NULL,               -- JSON list of doc ids the answer quoted
    trace TEXT NOT NULL,
    nearest TEXT NOT NULL,
    model TEXT,
    vector BLOB,
    reviewed_at TEXT,
    reviewed_by TEXT,
    audiences TEXT,                   -- JSON list of the audience labels of every clause shown (NULL: older row)
    traffic TEXT NOT NULL DEFAULT 'person'
);
CREATE INDEX IF NOT EXISTS feedback_time ON feedback (created_at);
"""
# columns added after the first stores were made, in the order they came (table, column, declaration)
ADDED_COLUMNS = (
    ("feedback", "audiences", "TEXT"),  # a store from before audiences were kept
    ("questions", "traffic", f"TEXT NOT NULL DEFAULT '{PERSON}'"),  # before traffic was kept: rows are people's
    ("feedback", "traffic", f"TEXT NOT NULL DEFAULT '{PERSON}'"),
    ("questions", "conversation", "TEXT"),  # kept since fix51
    ("questions", "turn", "INTEGER"),
)

INDEX_NAMES = ("questions_turn", "questions_text")  # made by `_migrate` (the columns they index came later)
STORE_VERSION = 2  # PRAGMA user_version: 1 old standard ratings restricted, 2 what askers told taken out (`told`)
DISLIKED = "disliked"  # a gap item's kind: a 👎 rating (of a question asked outside the window, or answered)
ALSO_DISLIKED = f"+{DISLIKED}"  # suffix of an asked turn's kind when its asker also rated it 👎 (`unfold_kinds`)


def unfold_kinds(group: GapGroup) -> GapGroup:
    """The group's kinds as the page shows them: a rated turn under its outcome, its 👎 as a mark beside it (the
    turn counted once in `count`, as it was asked once)."""
    kinds: dict[str, int] = {}
    marks = 0
    for kind, n in group.kinds.items():
        base, rated, _ = kind.partition("+")
        kinds[base] = kinds.get(base, 0) + n
        marks += n if rated else 0
    if marks:
        kinds[DISLIKED] = kinds.get(DISLIKED, 0) + marks
    group.kinds = kinds
    return group


def _people(include_tests: bool, column: str = "traffic") -> str:
    """The SQL condition that keeps people's rows only, unless eval and test traffic is asked for too."""
    return "" if include_tests else f" AND {column} = '{PERSON}'"


def _traffic(value: str) -> str:
    if value not in TRAFFIC:  # a typo must not hide a person's question from every statistic
        raise ValueError(f"unknown traffic {value!r}; expected one of {TRAFFIC}")
    return value


def _blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


class InsightLog(ConversationRows):
    def __init__(self, path: Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        create_store(path, SCHEMA)  # whole or not at all: a full disk left a 0-byte file read as a cut store
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        if self._outdated():  # read first: an up-to-date store opens without waiting for another writer
            self._migrate()
        self._lock = threading.RLock()

    def _outdated(self) -> bool:
        """Whether a column, the turn index or the user_version step is missing: read without a write lock."""
        have = {table: {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                for table in ("questions", "feedback")}
        return (any(column not in have[table] for table, column, _ in ADDED_COLUMNS)
                or len(self._db.execute(f"SELECT 1 FROM sqlite_master WHERE name IN {INDEX_NAMES}").fetchall()) < 2
                or self._db.execute("PRAGMA user_version").fetchone()[0] < STORE_VERSION)

    def _migrate(self) -> None:
        """An older store's columns, added in one transaction, each only when missing (checked again under the
        lock: another process may have migrated meanwhile). A kill between two ALTERs (each its own commit outside
        a transaction) had left `conversation` without `turn`, and every later open failed on the duplicate
        column, with the gaps, usage and feedback pages off for good."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for table, column, declaration in ADDED_COLUMNS:
                self._add_missing(table, column, declaration)
            self._db.execute("CREATE INDEX IF NOT EXISTS questions_turn ON questions (conversation, turn)")
            self._db.execute("CREATE INDEX IF NOT EXISTS questions_text ON questions (question, user_id)")  # `_rated_turns`
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version < 1:
                self._restrict_old_standard_ratings()
            if version < STORE_VERSION:
                scrub_told(self._db)
                self._db.execute(f"PRAGMA user_version = {STORE_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def _add_missing(self, table: str, column: str, declaration: str) -> None:
        if column not in {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}:  # (once, each)
            self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")

    def _restrict_old_standard_ratings(self) -> None:
        """Ratings of a standard answer stored before its audience was kept in the trace counted only the search's
        clauses, so HR saw a managers-only answer: such a row is now shown to administrators only (`UNKNOWN`)."""
        rows = self._db.execute("SELECT id, trace, audiences FROM feedback WHERE trace LIKE '%standard_answer%'")
        for row_id, trace, audiences in rows.fetchall():
            standard = (json.loads(trace) if trace else {}).get("standard_answer")
            if isinstance(standard, dict) and standard and "audience" not in standard:
                shown = [*json.loads(audiences or "[]"), list(UNKNOWN)]
                self._db.execute("UPDATE feedback SET audiences = ? WHERE id = ?", (json.dumps(shown), row_id))

    def _write(self, sql: str, params: Sequence[Any]) -> int:
        """Run one statement; the new row's id for an INSERT, else how many rows changed."""
        with self._lock:
            cur = self._db.execute(sql, params)
            self._db.commit()
            return int(cur.lastrowid) if sql.startswith("INSERT") else cur.rowcount

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """Rows of one query, under the log's lock (this package's modules read through it, not the connection)."""
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection inside one write transaction (BEGIN IMMEDIATE, committed at the end, rolled back on any
        error), for this package's modules that write several rows as one: carried ratings, re-embedded vectors."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- questions ---------------------------------------------------------
    def log_question(self, *, asked_at: str, user: str, role: str, question: str, outcome: str, hit_count: int,
                     cited_docs: Sequence[str], nearest: dict, standard_id: str | None = None,
                     model: str | None = None, vector: np.ndarray | None = None, traffic: str = PERSON,
                     conversation: str | None = None, turn: int = 0) -> int:
        """Keep one asked question; `conversation` and `turn` (when it was kept in one) tie a later 👎 to it."""
        return self._write(
            "INSERT INTO questions (asked_at, user_id, role, question, outcome, hit_count, cited_docs, nearest,"
            " standard_id, model, vector, traffic, conversation, turn) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (asked_at, user, role, question, outcome, hit_count, json.dumps(list(cited_docs), ensure_ascii=False),
             json.dumps(nearest, ensure_ascii=False), standard_id, model, _blob(vector), _traffic(traffic),
             conversation if conversation and turn else None, int(turn) if conversation and turn else None),
        )

    def purge_before(self, cutoff: str) -> int:
        """Delete questions (and feedback) older than `cutoff` (ISO); the retention rule."""
        with self._lock:
            gone = self._db.execute("DELETE FROM questions WHERE asked_at < ?", (cutoff,)).rowcount
            gone += self._db.execute("DELETE FROM feedback WHERE created_at < ?", (cutoff,)).rowcount
            self._db.commit()
        return gone

    def forget_question_text(self) -> int:
        """The retention at 0: delete every question, and blank each rating's question and comment (with its gap
        vector; the stored trace's question too) — the ratings stay for review."""
        with self._lock:
            gone = self._db.execute("DELETE FROM questions").rowcount
            rows = self._db.execute("SELECT id, trace FROM feedback WHERE question != '' OR comment != ''").fetchall()
            for row_id, trace in rows:
                kept = without_question(json.loads(trace) if trace else {})
                self._db.execute("UPDATE feedback SET question = '', comment = '', model = NULL, vector = NULL,"
                                 " trace = ? WHERE id = ?", (json.dumps(kept, ensure_ascii=False), row_id))
            self._db.commit()
        return gone + len(rows)

    def question_rows(self, since: str = "", until: str = "\uffff", *, include_tests: bool = False) -> list[dict[str, Any]]:
        """People's logged questions in [since, until) (with eval and test ones when asked), oldest first, no vectors."""
        rows = self.read(
            "SELECT id, asked_at, user_id, role, question, outcome, hit_count, cited_docs, standard_id, traffic"
            f" FROM questions WHERE asked_at >= ? AND asked_at < ?{_people(include_tests)} ORDER BY asked_at, id",
            (since, until),
        )
        keys = ("id", "asked_at", "user", "role", "question", "outcome", "hit_count", "cited_docs", "standard_id",
                "traffic")
        out = []
        for row in rows:
            item = dict(zip(keys, row))
            item["cited_docs"] = json.loads(item["cited_docs"])
            item["question"] = shown(item["question"])  # an older version's masker may have missed some
            out.append(item)
        return out

    def gap_items(
        self, model: str, since: str = "", until: str = "\uffff", include_weak: bool = False, *,
        include_tests: bool = False, readable: Callable[[GapItem], bool] = lambda _item: True,
        cited_readable: Callable[[list[str], str], bool] = lambda _docs, _at: True,
    ) -> tuple[list[GapItem], list[np.ndarray]]:
        """People's unanswered questions and 👎 answers in the window (and weak-evidence answers when asked; eval
        and test traffic too with `include_tests`), each with its vector (of `model` only). Each asked turn is one item: a 👎 of a turn listed here marks that turn's kind (`ALSO_DISLIKED`) and is
        no item of its own; a 👎 of an answered turn, or of one asked before the window, is one. Only items the
        reader may see (`readable`) are listed, and only a 👎 they may see marks a turn: a mark shows the rating."""
        outcomes = (*GAP_OUTCOMES, WEAK_OUTCOME) if include_weak else GAP_OUTCOMES
        marks = ",".join("?" * len(outcomes))
        asked = self.read(
            "SELECT question, asked_at, outcome, user_id, nearest, NULL, NULL, vector, id, cited_docs FROM questions"
            f" WHERE outcome IN ({marks}) AND model = ? AND vector IS NOT NULL AND asked_at >= ? AND asked_at < ?"
            f"{_people(include_tests)}",
            (*outcomes, model, since, until),
        )
        asked = [row[:9] for row in asked  # a weak answer listed only for who may read what it cited (review 367)
                 if row[2] != WEAK_OUTCOME or cited_readable(json.loads(row[9] or "[]"), row[1])]
        disliked = self.read(  # a 👎 row keeps its id and audiences: the facade shows it only to who may read them
            f"SELECT question, created_at, '{DISLIKED}', user_id, nearest, id, audiences, vector FROM feedback"
            " WHERE rating < 0 AND model = ? AND vector IS NOT NULL AND created_at >= ? AND created_at < ?"
            f"{_people(include_tests)}",
            (model, since, until),
        )
        disliked = [row for row in disliked if readable(gap_item(row))]
        listed = {row[-1] for row in asked}
        rates = self._rated_turns([row[5] for row in disliked])  # 👎 id -> the asked turn's row id
        rated = set(rates.values())  # looked up once per asked row
        rows = [(*row[:2], row[2] + ALSO_DISLIKED if row[-1] in rated else row[2], *row[3:8])
                for row in asked]
        rows += [row for row in disliked if rates.get(row[5]) not in listed]
        kept = [(item, row[-1]) for row in rows if (item := gap_item(row)).feedback_id is not None or readable(item)]
        return [item for item, _ in kept], [np.frombuffer(blob, dtype=np.float32) for _, blob in kept]

    def _rated_turns(self, feedback_ids: Sequence[int]) -> dict[int, int]:
        """The asked question (its row id) each 👎 rates: the row of its conversation and turn when both kept them,
        else the latest not yet taken with its question asked at or before the rating, by its rater or by nobody
        named (asked with no name, rated under the asker's)."""
        found: dict[int, int] = {}
        taken: set[int] = set()  # asked rows an earlier 👎 rates
        wanted = set(feedback_ids)  # every 👎 read in one query; the asked question found through `questions_text`
        for feedback_id, text, at, user, conversation, turn in self.read(
                "SELECT id, question, created_at, user_id, json_extract(trace, '$.conversation'),"
                " json_extract(trace, '$.turn') FROM feedback WHERE rating < 0 ORDER BY id"):
            if feedback_id not in wanted:
                continue
            rows = self.read("SELECT id FROM questions WHERE conversation = ? AND turn = ? AND asked_at <= ?"
                              " ORDER BY id DESC LIMIT 1", (conversation, int(turn), at)) if conversation and turn else []
            if not rows:
                rows = [r for r in self.read(
                    "SELECT id FROM questions WHERE question = ? AND asked_at <= ? AND user_id IN (?, '')"
                    " AND turn IS NULL ORDER BY user_id = ? DESC, asked_at DESC, id DESC", (text, at, user, user),
                ) if r[0] not in taken]
            if rows:
                found[feedback_id] = rows[0][0]
                taken.add(rows[0][0])
        return found

    # -- feedback ----------------------------------------------------------
    def add_feedback(self, *, created_at: str, user: str, question: str, answer: str, rating: int, reason: str,
                     comment: str, docs: Sequence[str], trace: dict, nearest: dict, model: str | None,
                     vector: np.ndarray | None, audiences: Sequence[Sequence[str]] = (), traffic: str = PERSON) -> int:
        """Store a rating; the same person rating the same turn again (👎 then its reason) updates it. A turn is
        its conversation and number when the trace has them (the same answer in another conversation is another
        rating), else its question and answer."""
        conversation, turn = trace.get("conversation"), trace.get("turn")
        with self._lock:
            if conversation and turn:
                row = self._db.execute(
                    "SELECT id FROM feedback WHERE user_id = ? AND json_extract(trace, '$.conversation') = ?"
                    " AND json_extract(trace, '$.turn') = ? ORDER BY id DESC LIMIT 1", (user, conversation, int(turn)),
                ).fetchone()
            else:
                row = self._db.execute(
                    "SELECT id FROM feedback WHERE user_id = ? AND question = ? AND answer = ? ORDER BY id DESC LIMIT 1",
                    (user, question, answer),
                ).fetchone()
        shown = json.dumps([list(labels) for labels in audiences], ensure_ascii=False)
        if row is not None:
            # a 👎's reason and its comment come one at a time: an update without one keeps the one stored, and the
            # time it was given while HR has not read it (a reason added minutes later moved the 👎 to then on both
            # pages); a flip is new, and so is a reason for a 👎 HR already read: it must come back into the window
            # (a 40-day-old one stayed out of 反馈审阅's 30 days, unread, review 213)
            self._write(
                "UPDATE feedback SET created_at = CASE WHEN rating = ? AND reviewed_at IS NULL THEN created_at ELSE ? END,"
                " rating = ?,"
                " reason = CASE WHEN ? < 0 AND ? = '' THEN reason ELSE ? END,"
                " comment = CASE WHEN ? < 0 AND ? = '' THEN comment ELSE ? END, docs = ?, trace = ?,"
                " nearest = ?, model = ?, vector = ?, audiences = ?, traffic = ?, reviewed_at = NULL,"
                " reviewed_by = NULL WHERE id = ?",
                (int(rating), created_at, int(rating), int(rating), reason, reason, int(rating), comment, comment,
                 json.dumps(list(docs), ensure_ascii=False),
                 json.dumps(trace, ensure_ascii=False), json.dumps(nearest, ensure_ascii=False), model,
                 _blob(vector), shown, _traffic(traffic), row[0]),
            )
            return int(row[0])
        return self._write(
            "INSERT INTO feedback (created_at, user_id, question, answer, rating, reason, comment, docs, trace,"
            " nearest, model, vector, audiences, traffic) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (created_at, user, question, answer, int(rating), reason, comment,
             json.dumps(list(docs), ensure_ascii=False), json.dumps(trace, ensure_ascii=False),
             json.dumps(nearest, ensure_ascii=False), model, _blob(vector), shown, _traffic(traffic)),
        )

    _FEEDBACK_COLS = ("id, created_at, user_id, question, answer, rating, reason, comment, docs, reviewed_at,"
                      " reviewed_by, audiences")

    def _entry(self, row: tuple, trace: str | None = None) -> FeedbackEntry:
        """A feedback row as read out: its texts masked by today's masker, and the trace's (when read) but its
        clauses, which stay as stored (`text.shown`)."""
        return FeedbackEntry(
            id=row[0], created_at=row[1], user=row[2], question=shown(row[3]), answer=shown(row[4]), rating=row[5],
            reason=row[6], comment=shown(row[7]), docs=json.loads(row[8]), reviewed_at=row[9], reviewed_by=row[10],
            audiences=None if row[11] is None else [tuple(a) for a in json.loads(row[11])],
            trace=shown_trace(json.loads(trace)) if trace else {},
        )

    def feedback(self, *, rating: int | None = None, doc_id: str | None = None, since: str = "",
                 until: str = "\uffff", unread_only: bool = False, include_tests: bool = False) -> list[FeedbackEntry]:
        """Rated answers, newest first, filtered by rating, quoted document, date and review state (people's
        ratings only unless `include_tests`)."""
        sql = f"SELECT {self._FEEDBACK_COLS} FROM feedback WHERE created_at >= ? AND created_at < ?{_people(include_tests)}"
        params: list[Any] = [since, until]
        if rating is not None:
            sql += " AND rating = ?"
            params.append(1 if rating > 0 else -1)
        if unread_only:
            sql += " AND reviewed_at IS NULL"
        entries = [self._entry(r) for r in self.read(sql + " ORDER BY created_at DESC, id DESC", params)]
        return [e for e in entries if doc_id is None or doc_id in e.docs]

    def feedback_entry(self, feedback_id: int) -> FeedbackEntry | None:
        """The entry, or None for an id no row can have (`sqlite_int`)."""
        if (row_id := sqlite_int(feedback_id)) is None:
            return None
        rows = self.read(f"SELECT {self._FEEDBACK_COLS}, trace FROM feedback WHERE id = ?", (row_id,))
        return self._entry(rows[0][:-1], rows[0][-1]) if rows else None

    def mark_reviewed(self, ids: Sequence[int], by: str, at: str | None, *, reviewed: bool = True) -> int:
        """Mark entries read (or unread again); returns how many changed."""
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        values = (at, by) if reviewed else (None, None)
        return self._write(f"UPDATE feedback SET reviewed_at = ?, reviewed_by = ? WHERE id IN ({marks})",
                           (*values, *[int(i) for i in ids]))

    def close(self) -> None:
        with self._lock:
            self._db.close()
