"""The insights rows of one conversation: its owner's ratings read back or taken back, and what its deletion leaves.

Split from `log` (kept under the 400-line limit); `InsightLog` inherits `ConversationRows`. A rating's row names
its turn by the conversation id and number in its trace, and an asked question's row by its `conversation` and
`turn` columns. An id is free again once its conversation is deleted, so the delete takes the asked questions out
(the asker's words under their name: the chat page says the conversation's questions go) and unties the ratings,
which stay for HR's review with their own question, answer and trace: a new conversation under the same id starts
with no rating shown and overwrites none (`add_feedback` updates the row of the same rater, conversation and turn).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..text.shown import shown
from .records import PERSON


class TurnFeedback(NamedTuple):
    """One turn's rating as its rater gave it: the chat page shows the reason and comment under a kept 👎."""

    rating: int
    reason: str
    comment: str


class ConversationRows:
    """Mixin of `InsightLog`: the rows of one conversation's turns."""

    _db: sqlite3.Connection
    _lock: threading.RLock

    _write: Callable[[str, Sequence[Any]], int]  # `InsightLog`'s
    read: Callable[..., list[tuple]]

    def withdraw_feedback(self, user: str, conversation: str, turn: int) -> int:
        """A rating taken back (the 👍/👎 clicked again): its review row goes; returns how many went."""
        return self._write(
            "DELETE FROM feedback WHERE user_id = ? AND json_extract(trace, '$.conversation') = ?"
            " AND json_extract(trace, '$.turn') = ?", (user, conversation, int(turn)))

    def turn_feedback(self, user: str, conversation: str) -> dict[int, TurnFeedback]:
        """`user`'s ratings of the turns of one conversation, by turn (the latest row when one was kept twice)."""
        rows = self.read(
            "SELECT json_extract(trace, '$.turn'), rating, reason, comment FROM feedback WHERE user_id = ?"
            " AND json_extract(trace, '$.conversation') = ? ORDER BY id", (user, conversation))
        return {int(turn): TurnFeedback(int(rating), reason, shown(comment))
                for turn, rating, reason, comment in rows if turn}

    def forget_conversation(self, user: str, conversation: str) -> int:
        """A conversation deleted: the questions `user` asked in it go (a person's: an evaluation's, asked by no one
        and deleted once scored, stay counted as its traffic), and every rating of its turns (anyone's) loses its
        conversation id, in one transaction; returns how many questions went."""
        with self._lock:
            try:
                gone = self._db.execute("DELETE FROM questions WHERE user_id = ? AND conversation = ? AND traffic = ?",
                                        (user, conversation, PERSON)).rowcount
                self._db.execute("UPDATE feedback SET trace = json_remove(trace, '$.conversation')"
                                 " WHERE json_extract(trace, '$.conversation') = ?", (conversation,))
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise
        return gone
