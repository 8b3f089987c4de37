"""Version history with what changed: chunks added and removed, and a short diff.

A new version retires the old one, and retiring deletes the old chunks from the
catalog (search must never see them). So the text of every version is kept
here, in its own small SQLite file under the data dir, when the version is
written; the history view compares each version with the one before it. A
deleted document's recorded text is deleted with it.

The file only serves the comparison: when it is damaged, an upload or a deletion
still completes (its result stands, the report or the store notices carry one
Chinese line naming the file), and only the history view says it cannot compare.
"""

from __future__ import annotations

import difflib
import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..documents.catalog import office_today, versions_in_effect
from ..documents.standing import scheduled
from ..documents.taking_effect import taking_effect
from ..errors import StoreDamaged
from ..storage.account_files import HISTORY as HISTORY_FILE
from ..storage.account_files import damaged_line
from ..storage.new_store import create_store
from ..types import Chunk, DocumentInfo, IngestReport, Principal, VersionChange
from .core import FacadeCore

_log = logging.getLogger(__name__)
DIFF_LINES = 12  # a short diff: enough to see what moved, not the whole document
_DIFF_CHARS = 300  # a changed middle longer than this is shown as one run, not diffed character by character
_SCHEMA = """
CREATE TABLE IF NOT EXISTS version_text (
    doc_id TEXT NOT NULL, version INTEGER NOT NULL, idx INTEGER NOT NULL, content_hash TEXT NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (doc_id, version, idx)
)"""


class VersionTexts:
    """The chunk texts of every recorded version (doc_id, version) → [(hash, text), …]."""

    def __init__(self, path) -> None:
        create_store(path, _SCHEMA)  # whole or not at all (`storage.new_store`)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute(_SCHEMA)
            self._db.commit()

    def has(self, doc_id: str, version: int) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM version_text WHERE doc_id=? AND version=? LIMIT 1", (doc_id, version)
            ).fetchone()
        return row is not None

    def record(self, chunks: list[Chunk]) -> None:
        rows = [(c.doc_id, c.version, c.index, c.content_hash, c.text) for c in chunks]
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO version_text VALUES (?,?,?,?,?)", rows)
            self._db.commit()

    def texts(self, doc_id: str, version: int) -> list[str] | None:
        with self._lock:
            rows = self._db.execute(
                "SELECT text FROM version_text WHERE doc_id=? AND version=? ORDER BY idx", (doc_id, version)
            ).fetchall()
        return [r[0] for r in rows] or None

    def forget(self, doc_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM version_text WHERE doc_id=?", (doc_id,))
            self._db.commit()


def compare(old: list[str], new: list[str]) -> tuple[int, int, int, list[str]]:
    """(added, removed, unchanged, short diff) between two versions' chunk texts."""
    old_set, new_set = set(old), set(new)
    added = sum(1 for t in new if t not in old_set)
    removed = sum(1 for t in old if t not in new_set)
    unchanged = sum(1 for t in new if t in old_set)
    old_lines = [line.strip() for t in old for line in t.splitlines() if line.strip()]
    new_lines = [line.strip() for t in new for line in t.splitlines() if line.strip()]
    diff: list[str] = []
    hunks: list[tuple[list[str], list[str]]] = []
    for line in difflib.unified_diff(old_lines, new_lines, lineterm="", n=0):
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            hunks.append(([], []))
        else:
            hunks[-1][line[0] == "+"].append(line[1:])
    for gone, came in hunks:
        for sign, lines, others in (("-", gone, came), ("+", came, gone)):
            for text in lines:  # beside the line it most resembles: an article added next to it shifts positions
                if len(diff) >= DIFF_LINES:
                    break
                other = max(others[:DIFF_LINES], default="",
                            key=lambda o: difflib.SequenceMatcher(None, text, o).quick_ratio())
                diff.append(f"{sign} {_around_change(text, other)}")
        if len(diff) >= DIFF_LINES:
            diff.append("…")
            break
    return added, removed, unchanged, diff


def _around_change(text: str, other: str, width: int = 120, margin: int = 15) -> str:
    """A changed line in about `width` characters: each run where it differs from the line it replaced (or by which
    it was replaced), with a little on each side, the cuts marked "…". A long clause changed near its end read the
    same on both sides when both were cut at 120 (review 384 #4), and a renumbered one (第二条→第三条) shows its
    new number and its changed amount both (387 #5)."""
    if len(text) <= width:
        return text
    # what both share at the start and the end first (linear); the runs within only when that middle is short: a
    # character diff of two 4,000-character lines took minutes (review 389 #2)
    head = next((i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b), min(len(text), len(other)))
    ends = text[head:][::-1], other[head:][::-1]
    tail = next((i for i, (a, b) in enumerate(zip(*ends, strict=False)) if a != b), min(map(len, ends)))
    middle, others = text[head : len(text) - tail], other[head : len(other) - tail]
    spans = [(head, len(text) - tail)]
    if len(middle) <= _DIFF_CHARS and len(others) <= _DIFF_CHARS:
        spans = [(head + i1, head + i2) for tag, i1, i2, _, _ in
                 difflib.SequenceMatcher(None, middle, others, autojunk=False).get_opcodes() if tag != "equal"]
    runs: list[list[int]] = []
    for i1, i2 in spans:
        low, high = max(0, i1 - margin), min(len(text), max(i2, i1 + 1) + margin)
        if runs and low <= runs[-1][1]:
            runs[-1][1] = high
        else:
            runs.append([low, high])
    if not runs:
        runs = [[0, width]]
    pieces, room = [], width
    for low, high in runs:
        if room <= 0:
            break
        high = min(high, low + room)
        pieces.append(("…" if low > 0 and not pieces else "") + text[low:high])
        room -= high - low
    shown = "…".join(pieces)
    return shown + ("…" if runs[-1][1] < len(text) or room <= 0 else "")


def _shown_status(info: DocumentInfo, in_effect: int | None, answering: set[int], today: str) -> str:
    """A live version is in effect, waiting for its day, replaced before its day by another dated the same day
    ("superseded": it never takes effect), or already replaced by one whose day came (the catalog calls all four
    "current"). `answering`: the live versions in effect today or on a later day (`taking_effect`)."""
    if info.status != "current" or info.version == in_effect:
        return info.status
    if scheduled(info, today):
        return "scheduled" if info.version in answering else "superseded"
    return "retired"


@contextmanager
def _history_store() -> Iterator[None]:
    """SQLite's damage errors inside the block become `StoreDamaged` with the history file's one line."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise StoreDamaged(damaged_line(HISTORY_FILE, exc)) from exc


class HistoryActions(FacadeCore):
    """Mixin of `Assistant`: record each version's text when it is written, and compare versions."""

    store_notices: list[str]

    @property
    def version_texts(self) -> VersionTexts:
        texts = getattr(self, "_version_texts", None)
        if texts is None:
            with _history_store():
                texts = self._version_texts = VersionTexts(self._settings.path(HISTORY_FILE))
        return texts

    def _ingest(self, data: bytes, filename: str, **kwargs) -> IngestReport:
        """Every ingest path ends here: record the new version's text before a later one retires it."""
        report = super()._ingest(data, filename, **kwargs)  # type: ignore[misc]
        if report.status == "indexed":
            report.warnings.extend(self._version_written(report.doc_id, report.version))
        return report

    def _version_written(self, doc_id: str, version: int) -> list[str]:
        """The hook every write path calls once a version is stored (an upload here, 重新切块 in `Reindexing`):
        record its text, which its chunks lose when a later version retires it; the report's warning, if any."""
        try:
            with _history_store():
                self.version_texts.record(self.catalog.chunks_of(doc_id, version))
        except StoreDamaged as exc:  # the version is indexed and searchable: that stands
            return [self._history_damaged(exc)]
        return []

    def delete_document(self, doc_id: str, *, actor: Principal | None = None) -> int:
        """Delete as usual, then the recorded text of every version."""
        removed = super().delete_document(doc_id, actor=actor)  # type: ignore[misc]
        if self.catalog.versions(doc_id):  # refused (answered as an unknown id to who cannot read it): kept whole
            return removed
        try:
            with _history_store():
                self.version_texts.forget(doc_id)
        except StoreDamaged as exc:  # the document is gone from the library and search: that stands
            self._history_damaged(exc)
        return removed

    def _history_damaged(self, damage: StoreDamaged) -> str:
        """Log the damage and add its line to the store notices once; returns the line."""
        line = str(damage)
        _log.warning("version history not updated: %s", line)
        if line not in self.store_notices:
            self.store_notices.append(line)
        return line

    def document_changes(self, doc_id: str, *, actor: Principal | None = None) -> list[VersionChange]:
        """Each version the actor may read, newest first, with what changed from the one before it."""
        actor = self._acting(actor, "documents.manage")
        versions = self.document_versions(doc_id, actor=actor)  # only the versions whose audience the actor reads
        with _history_store():
            return self._changes(doc_id, versions)

    def _changes(self, doc_id: str, versions: list) -> list[VersionChange]:
        today = office_today(self._settings.timezone)
        live = [v for v in self.catalog.versions(doc_id) if v.status == "current"]  # every reader's, as search chooses
        in_effect = versions_in_effect(live, today).get(doc_id)
        current_version = in_effect.version if in_effect is not None else None
        answering = {v.version for v in taking_effect(live, today)}
        for v in versions:  # a version written before history was kept: its chunks are still there while live
            if v.status == "current" and not self.version_texts.has(doc_id, v.version):
                chunks = self.catalog.chunks_of(doc_id, v.version)
                if chunks:
                    self.version_texts.record(chunks)
        out: list[VersionChange] = []
        previous: list[str] | None = None
        for index, v in enumerate(versions):
            texts = self.version_texts.texts(doc_id, v.version)
            change = VersionChange(
                version=v.version, status=_shown_status(v, current_version, answering, today), ingested_at=v.ingested_at, chunk_count=v.chunk_count,
                is_current=v.version == current_version, source=v.source, effective_date=v.effective_date,
                audience=tuple(v.audience), title=v.title,
            )
            if texts is not None and index == 0:
                change.added, change.unchanged = len(texts), 0
            elif texts is not None and previous is not None:
                change.added, change.removed, change.unchanged, change.diff = compare(previous, texts)
            else:
                change.known = False
            out.append(change)
            previous = texts
        return list(reversed(out))

    def version_text(self, doc_id: str, version: int, *, actor: Principal | None = None) -> list[str] | None:
        """The text of one recorded version the actor may read, chunk by chunk (overlaps kept), or None when none was
        kept: 版本历史 shows a retired version whole, as the upload help promised (review 384 #5)."""
        actor = self._acting(actor, "documents.manage")
        if not any(v.version == version for v in self.document_versions(doc_id, actor=actor)):
            return None  # a version the actor may not read reads as one never kept
        with _history_store():
            return self.version_texts.texts(doc_id, version)
