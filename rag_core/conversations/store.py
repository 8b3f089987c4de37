"""Conversations per user in SQLite: titles, turns with their full trace and rating, retention.

Deleting a conversation deletes its turns (and so their traces) in the same transaction. Times are ISO-8601 UTC
strings; the pages show them in local time."""

from __future__ import annotations

import json
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import PermissionDenied, RagError
from ..storage.new_store import create_store
from ..storage.row_ids import sqlite_int
from ..text.shown import shown, shown_answer, shown_trace

TITLE_CHARS = 24
MAX_ID_CHARS = 64
MAX_TITLE_CHARS = 60
# what a typed title may hold before spaces collapse and masking shortens it (a card number becomes [银行卡号]):
# anything longer is refused before the masker reads it (a pasted book took seconds of it)
MAX_TITLE_INPUT_CHARS = MAX_TITLE_CHARS * 10

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS conversations_by_user ON conversations(user, updated_at);
CREATE TABLE IF NOT EXISTS turns (
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    question TEXT NOT NULL,
    search_question TEXT NOT NULL,
    answer TEXT NOT NULL,
    trace TEXT NOT NULL,
    rating INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, turn)
);
"""


def _conversation(row: tuple) -> Conversation:
    """A stored conversation row; its title masked by today's masker (an older version's may have missed some)."""
    return Conversation(row[0], row[1], shown(row[2]), *row[3:])


def _trace(row: tuple) -> dict:
    """A stored turn's trace; one that no longer reads (a damaged row) is its question and answer with a note,
    so one bad row costs that turn's evidence, not the whole conversation."""
    try:
        trace = json.loads(row[4])
    except (TypeError, ValueError):
        trace = None
    if isinstance(trace, dict):
        return trace
    return {"question": row[1], "search_question": row[2], "answer": row[3],
            "warnings": ["这一轮保存的检索记录已损坏，只保留了问题和回答"]}


class ConversationError(RagError):
    """A conversation could not be found, named or changed; the message is for the user."""


class ForeignConversation(ConversationError, PermissionDenied):
    """Asking in a conversation that belongs to someone else: refused, and audited by the facade.

    A refusal of who acts, so a `PermissionDenied` too (a caller handling refusals catches it); still a
    `ConversationError` for the callers that say a conversation could not be used."""


@dataclass
class Turn:
    turn: int
    question: str
    search_question: str
    answer: str
    trace: dict[str, Any]
    rating: int | None
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "question": self.question, "search_question": self.search_question,
            "answer": self.answer, "rating": self.rating, "created_at": self.created_at, "trace": self.trace,
        }  # fmt: skip


@dataclass
class Conversation:
    id: str
    user: str
    title: str
    created_at: str
    updated_at: str
    turn_count: int = 0
    turns: list[Turn] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "user": self.user, "title": self.title, "created_at": self.created_at,
            "updated_at": self.updated_at, "turn_count": self.turn_count, "turns": [t.to_dict() for t in self.turns],
        }  # fmt: skip


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def title_from(question: str) -> str:
    """A conversation's first title: its first question, shortened."""
    text = " ".join(question.split())
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"


def _control(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category[0] == "C" or category in ("Zl", "Zp")


def bounded_title(title: object) -> object:
    """`title` as given, or `ConversationError` when it is far too long to be a title even once masked."""
    if isinstance(title, str | bytes | bytearray) and len(title) > MAX_TITLE_INPUT_CHARS:
        raise ConversationError(f"对话标题最多 {MAX_TITLE_CHARS} 个字")
    return title


def check_id(conversation_id: str) -> str:
    if conversation_id is not None and not isinstance(conversation_id, str):  # 5 raised AttributeError in English
        raise ConversationError("对话编号应为文字")
    cid = (conversation_id or "").strip()  # a control or format character (\x00, U+202E) would show as text
    if not cid or len(cid) > MAX_ID_CHARS or any(_control(ch) for ch in cid):
        raise ConversationError(f"对话编号须为 1 到 {MAX_ID_CHARS} 个字符，不能含换行或控制字符")
    return cid


def check_turn(conversation_id: str, turn: object) -> int:  # 10**20 raised OverflowError in English
    if (number := sqlite_int(turn)) is None:
        raise ConversationError(f"找不到对话 {conversation_id} 的第 {str(turn)[:24]} 轮")
    return number


class ConversationStore:
    """One SQLite file; safe to share between threads (one connection per call, one writer lock)."""

    def __init__(self, path: str | Path, retention_days: float = 0.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.retention_days = retention_days
        self._lock = threading.Lock()
        create_store(self.path, SCHEMA)  # whole or not at all: a full disk left a 0-byte file read as a cut store
        with self._tx() as conn:
            conn.executescript(SCHEMA)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = sqlite3.connect(self.path, timeout=30)
            try:
                conn.execute("PRAGMA foreign_keys = ON")
                yield conn
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
            finally:
                conn.close()

    # -- conversations ---------------------------------------------------------
    def get(self, conversation_id: str, *, with_turns: bool = False, last: int | None = None) -> Conversation | None:
        """The conversation (`turn_count` all its turns); `with_turns` reads its turns too, only the `last` most
        recent ones when given (a page shows the recent turns of a long conversation, not thousands)."""
        cid = check_id(conversation_id)
        with self._tx() as conn:
            row = conn.execute(
                "SELECT c.id, c.user, c.title, c.created_at, c.updated_at, COUNT(t.turn) FROM conversations c "
                "LEFT JOIN turns t ON t.conversation_id = c.id WHERE c.id = ? GROUP BY c.id",
                (cid,),
            ).fetchone()
            if row is None or row[0] is None:
                return None
            conv = _conversation(row)
            if with_turns:
                conv.turns = self._turns(conn, cid, last)
        return conv

    def ensure(self, conversation_id: str, user: str, first_question: str = "") -> Conversation:
        """The conversation, created for `user` on first use (its title from the first question)."""
        cid = check_id(conversation_id)
        now = _now()
        with self._tx() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO conversations (id, user, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                (cid, user, title_from(first_question) or "新对话", now, now),
            )
        conv = self.get(cid)
        assert conv is not None
        return conv

    def list(self, user: str) -> list[Conversation]:
        """A user's conversations, most recently used first."""
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT c.id, c.user, c.title, c.created_at, c.updated_at, COUNT(t.turn) FROM conversations c "
                "LEFT JOIN turns t ON t.conversation_id = c.id WHERE c.user = ? GROUP BY c.id "
                "ORDER BY c.updated_at DESC, c.created_at DESC, c.id",
                (user,),
            ).fetchall()
        return [_conversation(row) for row in rows]

    def users(self) -> list[str]:
        with self._tx() as conn:
            return [r[0] for r in conn.execute("SELECT DISTINCT user FROM conversations ORDER BY user")]

    def rename(self, conversation_id: str, title: str) -> None:
        text = " ".join((title or "").split())
        if not text:
            raise ConversationError("对话标题不能为空")
        if len(text) > MAX_TITLE_CHARS:
            raise ConversationError(f"对话标题最多 {MAX_TITLE_CHARS} 个字")
        with self._tx() as conn:
            changed = conn.execute("UPDATE conversations SET title = ? WHERE id = ?", (text, check_id(conversation_id)))
            if not changed.rowcount:
                raise ConversationError(f"找不到对话：{conversation_id}")

    def delete(self, conversation_id: str) -> int:
        """Delete a conversation with its turns and traces; returns how many turns went."""
        cid = check_id(conversation_id)
        with self._tx() as conn:
            gone = conn.execute("DELETE FROM turns WHERE conversation_id = ?", (cid,)).rowcount
            if not conn.execute("DELETE FROM conversations WHERE id = ?", (cid,)).rowcount:
                raise ConversationError(f"找不到对话：{conversation_id}")
        return gone

    # -- turns -------------------------------------------------------------------
    def _turns(self, conn: sqlite3.Connection, cid: str, last: int | None = None, *,
               masked_traces: bool = True) -> list[Turn]:
        """The turns as read out: what the person wrote masked by today's masker (a row an older version stored may
        hold what its masker missed), in the trace too unless `masked_traces` is False (an engine step reading only
        its tags); the answer's and the trace's clauses as stored (`text.shown`)."""
        sql = "SELECT turn, question, search_question, answer, trace, rating, created_at FROM turns WHERE conversation_id = ?"
        if last is None:
            rows = conn.execute(sql + " ORDER BY turn", (cid,)).fetchall()
        else:
            rows = conn.execute(sql + " ORDER BY turn DESC LIMIT ?", (cid, last)).fetchall()[::-1]
        out = []
        for r in rows:
            trace = _trace(r)
            out.append(Turn(r[0], shown(r[1]), shown(r[2]), shown_answer(r[3], trace),
                            shown_trace(trace) if masked_traces else trace, r[5], r[6]))
        return out

    def turns(self, conversation_id: str, last: int | None = None, *, masked_traces: bool = True) -> list[Turn]:
        """The turns oldest first; `last` keeps only the most recent ones. `masked_traces=False` skips masking
        each trace (the costly part) for a step that reads only a trace's tags (answerer, outcome, audiences)."""
        with self._tx() as conn:
            return self._turns(conn, check_id(conversation_id), last, masked_traces=masked_traces)

    def traces(self, conversation_id: str) -> list[Turn]:
        """Every turn, oldest first, with only its trace as stored (no text read out or masked): for a step that
        reads only the traces' tags (the audiences a turn carries) over the whole history of a long conversation."""
        with self._tx() as conn:
            rows = conn.execute("SELECT turn, trace FROM turns WHERE conversation_id = ? ORDER BY turn",
                                (check_id(conversation_id),)).fetchall()
        return [Turn(turn, "", "", "", _trace((turn, "", "", "", raw)), None, "") for turn, raw in rows]

    def rating(self, conversation_id: str, turn: int) -> int | None:
        """The rating kept with one turn (None: none, or no such turn)."""
        with self._tx() as conn:
            return (conn.execute("SELECT rating FROM turns WHERE conversation_id = ? AND turn = ?",
                                 (check_id(conversation_id), turn)).fetchone() or (None,))[0]

    def add_turn(self, conversation_id: str, question: str, search_question: str, answer: str, trace: dict,
                 turn: int | None = None, *, user: str | None = None) -> int:
        """Append a turn (the conversation must exist); returns its number (1-based, the next one unless given).

        The number is taken in the same write transaction as the insert (and written into the trace's "turn"),
        so two questions at once in one conversation both land, from one process or two. With `user`, the
        conversation must be theirs, checked in that transaction: two people whose first questions used one new id
        at once (`ensure` keeps the first) do not share it; the second's turn is not stored."""
        cid = check_id(conversation_id)
        now = _now()
        for attempt in range(5):
            try:
                with self._tx() as conn:
                    # the write lock before the number is read: another process (the CLI beside the app) waits
                    # instead of taking the same number (five retries ran out under load in CI)
                    conn.execute("BEGIN IMMEDIATE")
                    if user is not None:
                        self._owned_by(conn, cid, user)
                    number = turn or 1 + conn.execute(
                        "SELECT COALESCE(MAX(turn), 0) FROM turns WHERE conversation_id = ?", (cid,)
                    ).fetchone()[0]
                    stored = {**trace, "turn": number} if "turn" in trace else trace
                    conn.execute(
                        "INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?, NULL, ?)",
                        (cid, number, question, search_question, answer, json.dumps(stored, ensure_ascii=False), now),
                    )
                    conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (now, cid))
                return number
            except sqlite3.IntegrityError:
                if turn or attempt == 4:  # a given number is taken, or the clash persists
                    raise ConversationError(f"对话 {cid} 的第 {number} 轮已存在，这一轮没有保存") from None
        raise AssertionError("unreachable")

    @staticmethod
    def _owned_by(conn: sqlite3.Connection, cid: str, user: str) -> None:
        owner = conn.execute("SELECT user FROM conversations WHERE id = ?", (cid,)).fetchone()
        if owner is None:
            raise ConversationError(f"对话 {cid} 已被删除，这一轮没有保存")
        if owner[0] != user:
            raise ForeignConversation(f"对话编号 {cid} 刚被其他用户的对话占用，这一轮没有保存；请新建对话后再问")

    def update_turn(self, conversation_id: str, turn: int, *, rating: int | None = None, trace: dict | None = None,
                    answer: str | None = None) -> None:
        """Store a rating (1 / -1; 0 takes it back), a changed trace or a changed answer (an undo's note) for one turn."""
        cid = check_id(conversation_id)
        turn = check_turn(cid, turn)
        with self._tx() as conn:
            if rating is not None:
                if rating not in (1, -1, 0):
                    raise ConversationError("评价只能是 1（有用）、-1（没用）或 0（撤回）")
                done = conn.execute("UPDATE turns SET rating = ? WHERE conversation_id = ? AND turn = ?",
                                    (rating or None, cid, turn))
            if trace is not None:
                done = conn.execute(
                    "UPDATE turns SET trace = ? WHERE conversation_id = ? AND turn = ?",
                    (json.dumps(trace, ensure_ascii=False), cid, turn),
                )
            if answer is not None:
                done = conn.execute("UPDATE turns SET answer = ? WHERE conversation_id = ? AND turn = ?",
                                    (answer, cid, turn))
            if (rating is not None or trace is not None or answer is not None) and not done.rowcount:
                raise ConversationError(f"找不到对话 {conversation_id} 的第 {turn} 轮")

    def change_turn(self, conversation_id: str, turn: int, change: Callable[[dict, str], tuple[dict, str]]) -> None:
        """Apply `change` (trace, answer) -> the new (trace, answer) to one stored turn, read and written in one
        transaction: a change made meanwhile (a purge's `rewrite_turns`) is built on, never written over."""
        cid = check_id(conversation_id)
        turn = check_turn(cid, turn)
        with self._tx() as conn:
            conn.execute("BEGIN IMMEDIATE")  # the read too: no other process writes the turn before this one does
            row = conn.execute("SELECT trace, answer FROM turns WHERE conversation_id = ? AND turn = ?",
                               (cid, turn)).fetchone()
            if row is None:
                raise ConversationError(f"找不到对话 {conversation_id} 的第 {turn} 轮")
            try:
                trace = json.loads(row[0])
            except ValueError:
                trace = None
            if isinstance(trace, dict):
                trace, answer = change(trace, row[1])
                conn.execute("UPDATE turns SET trace = ?, answer = ? WHERE conversation_id = ? AND turn = ?",
                             (json.dumps(trace, ensure_ascii=False), answer, cid, turn))

    def rewrite_turns(self, user: str, change: Callable[[dict, str], tuple[dict, str] | None]) -> int:
        """Apply `change` (trace, answer) -> the new (trace, answer), or None to leave the turn, to every stored turn
        of `user`, in one transaction; how many turns changed. A trace that no longer reads is left as it is."""
        changed = 0
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT t.conversation_id, t.turn, t.trace, t.answer FROM turns t"
                " JOIN conversations c ON c.id = t.conversation_id WHERE c.user = ?", (user,)).fetchall()
            for cid, turn, raw, answer in rows:
                try:
                    trace = json.loads(raw)
                except ValueError:
                    continue
                new = change(trace, answer) if isinstance(trace, dict) else None
                if new is None:
                    continue
                conn.execute("UPDATE turns SET trace = ?, answer = ? WHERE conversation_id = ? AND turn = ?",
                             (json.dumps(new[0], ensure_ascii=False), new[1], cid, turn))
                changed += 1
        return changed

    # -- retention ---------------------------------------------------------------
    def purge_older_than(self, days: float | None = None, *, now: datetime | None = None) -> int:
        """Delete conversations unused for `days` (the store's retention when None; 0 keeps all)."""
        days = self.retention_days if days is None else days
        if not days or days <= 0:
            return 0
        cutoff = ((now or datetime.now(UTC)) - timedelta(days=days)).isoformat(timespec="seconds")
        with self._tx() as conn:
            old = [r[0] for r in conn.execute("SELECT id FROM conversations WHERE updated_at < ?", (cutoff,))]
            for cid in old:
                conn.execute("DELETE FROM turns WHERE conversation_id = ?", (cid,))
                conn.execute("DELETE FROM conversations WHERE id = ?", (cid,))
        return len(old)
