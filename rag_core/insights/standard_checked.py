"""Stored standard answers judged by today's rule for what an answer rests on, once per file and rule version.

Adding and releasing an answer refuse one for readers wider than a document it rests on (`standard_refs.rests_on`,
`narrower_basis`). Answers an older version stored were never judged so: an answer for everyone quoting a
managers-only clause, kept before the rule existed, was served to every employee after an upgrade, and nothing held
it (a hold comes with a new version or a delete, and that document never changed). So when the file is opened the
facade judges every stored answer by the rule (`facade.standard_review`) and holds each that fails for HR, with the
ordinary hold rows (reason `NARROWER`); the rule's version is then recorded in the file's `standard_meta`, so it
costs one small read at later starts. Until then the file serves no answer (`due`): a question goes to the policy
search, which shows each reader only what they may read.

A new file is recorded as judged (nothing in it was stored without the check). Bump `BASIS_RULE` whenever the rule
decides differently, and every file is judged again at its next start.

A file the judgement cannot be written to (read-only: a restore with the wrong owner, a read-only mount) is judged
all the same, at each start: the answers it holds are held in this process (`kept`, merged into the store's hold
reasons), the sound ones are served, and `unsaved` keeps why it was not recorded for the store notice. Before, such
a file stayed due for good: no answer was served, silently, and the page listed every one as active.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence

from .standard_holds import Hold, HoldTable

# standard_refs.rests_on / narrower_basis as of review 239; -2: a blank 依据 rests on the text; -3: an answer rests on what
# its own text quotes beside its 依据 (review 348: a copied managers-only clause served to all staff)
BASIS_RULE = "rests_on-3"
NARROWER = "narrower"  # `Hold.reason`: the answer rests on a document some of its readers cannot read
_KEY = "basis_rule"
SCHEMA = "CREATE TABLE IF NOT EXISTS standard_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


class BasisCheck:
    """The `standard_meta` record of which rule the stored answers were judged by (its connection and lock)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock, held: HoldTable):
        self._db, self._lock, self._held = db, lock, held
        self._done = False  # known judged by `BASIS_RULE`: no read per question
        self.unsaved: sqlite3.Error | None = None  # why the judgement could not be recorded (it holds for this process)
        self._kept: dict[str, list[Hold]] = {}  # the answers it held then, held in memory only
        # read first: a judged file opens without writing (nor waiting for another writer)
        if not self._recorded() and not db.execute("SELECT 1 FROM standard_answers LIMIT 1").fetchall():
            with lock:  # a new (or empty) file: nothing in it was stored unjudged
                try:
                    db.execute(SCHEMA)
                    self._record()
                    db.commit()
                except sqlite3.OperationalError as exc:  # a read-only copy: judged (nothing to judge) at each start
                    if db.in_transaction:
                        db.rollback()
                    if "readonly" not in str(exc):
                        raise
                    self._done = True

    def _recorded(self) -> str | None:
        try:
            row = self._db.execute("SELECT value FROM standard_meta WHERE key = ?", (_KEY,)).fetchone()
        except sqlite3.OperationalError as exc:  # an older version's file has no such table
            if "no such table" not in str(exc):
                raise
            return None
        return row[0] if row else None

    def _record(self) -> None:
        self._db.execute("INSERT OR REPLACE INTO standard_meta (key, value) VALUES (?, ?)", (_KEY, BASIS_RULE))

    def due(self) -> bool:
        """Are the stored answers still to be judged by `BASIS_RULE`? (Then none is served.)"""
        if not self._done:
            with self._lock:
                self._done = self._recorded() == BASIS_RULE
        return not self._done

    def hold(self, found: Mapping[str, Sequence[tuple[str, Sequence[str]]]], at: str) -> list[str]:
        """Hold each answer in `found` (id -> the (title, audience) of each document it rests on that some of its
        readers cannot read), one `NARROWER` row per document, and record the judgement; the ids held. Nothing
        when another process recorded it meanwhile (it held them). A file that cannot be written: held in memory
        (`kept`) and judged for this process, `unsaved` says why."""
        with self._lock:
            if self._recorded() == BASIS_RULE:
                self._done = True
                return []
            try:
                for answer_id, docs in found.items():
                    for title, audience in docs:
                        self._held.add([answer_id], NARROWER, title, ",".join(audience), at)
                self._db.execute(SCHEMA)
                self._record()
                self._db.commit()
            except sqlite3.OperationalError as exc:  # a read-only copy: judged for this process, held in memory
                if self._db.in_transaction:
                    self._db.rollback()
                if "readonly" not in str(exc):
                    raise
                self._kept = {i: [Hold(t, tuple(a), at, NARROWER) for t, a in docs] for i, docs in found.items() if docs}
                self.unsaved = exc
            self._done = True
        return [answer_id for answer_id, docs in found.items() if docs]

    def kept(self) -> dict[str, list[Hold]]:
        """The answers held by a judgement that could not be recorded (id -> its `NARROWER` reasons): held in this
        process only, judged again at the next start."""
        with self._lock:
            return {answer_id: list(holds) for answer_id, holds in self._kept.items()}

    def forget(self, answer_id: str) -> None:
        """HR released or deleted the answer: its in-memory hold goes too."""
        with self._lock:
            self._kept.pop(answer_id, None)
