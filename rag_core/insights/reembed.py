"""Gap vectors kept under another embedding model, embedded again with the current one (the text is kept).

The gap page groups questions by their vectors, and vectors of two models cannot be compared: after a model change
every earlier gap vanished from the page and the export. `refresh_gap_vectors` embeds each such question again (and a
👎 whose rating kept its question but no vector: one an older version kept in the catalog), in batches through the
facade's cached embedder, and stores the new model and vector, when the gaps are read.

A read does a bounded share (`PER_READ` questions, no new batch after `SECONDS`): 5,000 questions took minutes inside
one page load. The rest waits for the next read, and the facade says how many are still being regrouped (a question
not yet embedded again is not listed meanwhile: its vector cannot be grouped with the others). One refresher at a time
in a process (`_refreshing`): a second read meanwhile does none of it (two at once embedded every question twice).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

from .log import InsightLog

BATCH = 64  # questions per model call (and per write)
PER_READ = 512  # questions embedded again by one read at most
SECONDS = 3.0  # and no new batch once a read has spent this long on them
_STALE = (
    ("questions", "FROM questions WHERE model IS NOT NULL AND model != ? AND vector IS NOT NULL AND question != ''",
     "asked_at"),
    ("feedback", "FROM feedback WHERE rating < 0 AND question != '' AND (model IS NULL OR model != ?)", "created_at"),
)
_refreshing = threading.Lock()


def stale_gap_questions(log: InsightLog, model: str) -> int:
    """How many gap questions are kept under another model than `model` (not listed until embedded again)."""
    return sum(log.read(f"SELECT COUNT(*) {where}", (model,))[0][0] for _, where, _ in _STALE)


def refresh_gap_vectors(log: InsightLog, model: str, embed: Callable[[Sequence[str]], Sequence[np.ndarray]], *,
                        limit: int | None = None, seconds: float | None = None) -> tuple[int, int]:
    """Embed again, with `model` (`embed`: its queries' vectors), gap questions kept under another: at most `limit`
    and no new batch after `seconds`, none while another read of this process does it. (How many were, how many
    are left.)"""
    if not _refreshing.acquire(blocking=False):
        return 0, stale_gap_questions(log, model)
    limit, seconds = PER_READ if limit is None else limit, SECONDS if seconds is None else seconds
    try:
        done, began = 0, time.monotonic()
        for table, where, when in _STALE:
            if done and (done >= limit or time.monotonic() - began >= seconds):
                break
            # newest first: the gaps of the last days (the page's default window) are listed soonest (review 260)
            rows = log.read(f"SELECT id, question {where} ORDER BY {when} DESC LIMIT ?", (model, max(0, limit - done)))
            for start in range(0, len(rows), BATCH):
                if done and time.monotonic() - began >= seconds:
                    break
                batch = rows[start:start + BATCH]
                vectors = embed([text for _, text in batch])
                with log.transaction() as db:  # a row changed meanwhile (blanked by the retention, rated again) keeps its own
                    db.executemany(
                        f"UPDATE {table} SET model = ?, vector = ? WHERE id = ? AND question = ?",
                        [(model, np.asarray(v, dtype=np.float32).tobytes(), row_id, text)
                         for (row_id, text), v in zip(batch, vectors)])
                done += len(batch)
        return done, stale_gap_questions(log, model)
    finally:
        _refreshing.release()
