"""Gap vectors kept under another embedding model, embedded again with the current one (the text is kept).

The gap page groups questions by their vectors, and vectors of two models cannot be compared: after a model change
every earlier gap vanished from the page and the export. `refresh_gap_vectors` embeds each such question again (and a
👎 whose rating kept its question but no vector: one an older version kept in the catalog), in batches through the
facade's cached embedder, and stores the new model and vector; done once, when the gaps are next read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .log import InsightLog

BATCH = 64  # questions per model call (and per write)
_STALE = (
    ("questions", "SELECT id, question FROM questions WHERE model IS NOT NULL AND model != ? AND vector IS NOT NULL"
                  " AND question != ''"),
    ("feedback", "SELECT id, question FROM feedback WHERE rating < 0 AND question != '' AND (model IS NULL OR model != ?)"),
)


def refresh_gap_vectors(log: InsightLog, model: str, embed: Callable[[Sequence[str]], Sequence[np.ndarray]]) -> int:
    """Embed again, with `model` (`embed`: its queries' vectors), every gap question kept under another; how many."""
    done = 0
    for table, sql in _STALE:
        rows = log._rows(sql, (model,))
        for start in range(0, len(rows), BATCH):
            batch = rows[start:start + BATCH]
            vectors = embed([text for _, text in batch])
            with log._lock:  # a row changed meanwhile (blanked by the retention, rated again) keeps its own
                log._db.executemany(
                    f"UPDATE {table} SET model = ?, vector = ? WHERE id = ? AND question = ?",
                    [(model, np.asarray(v, dtype=np.float32).tobytes(), row_id, text)
                     for (row_id, text), v in zip(batch, vectors)])
                log._db.commit()
            done += len(batch)
    return done
