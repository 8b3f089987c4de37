"""Per-chunk rows a search reads from SQLite (chunks, sentence vectors), kept in memory between questions.

A question's candidates (some 50 chunks) used to be read from three SQLite files at every search:
the catalog's chunk rows, e5's and the second model's vector rows (about 3 ms at 10k chunks of a
~20 ms search beside the models). Questions on one topic share most candidates, so the last
`capacity` chunks' rows are kept, decoded as search uses them. A chunk id could come back with other
content (a store from before stop 57 numbered a deleted document's next upload from 1 again), so everything kept is
dropped when the catalog's generation moves, which every change of a document does; rows read while
it moved are used but not kept (another thread may have committed meanwhile), as in `VisibilityCache`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import numpy as np

Value = TypeVar("Value")
ROWS_KEPT = 4096  # chunks per cache, float16 as stored: ~50 MB for all three at 10k (e5 4.7 KB, USE 6 KB, text)


class GenerationCache(Generic[Value]):
    """chunk id → value read by `load`, for the catalog generation it was read at; least recently used goes first."""

    def __init__(self, load: Callable[[list[str]], dict[str, Value]], generation: Callable[[], int],
                 capacity: int = ROWS_KEPT):
        self._load = load
        self._generation = generation
        self.capacity = capacity
        self._items: OrderedDict[str, Value] = OrderedDict()
        self._kept_at = -1
        self._lock = threading.Lock()
        self.loaded = 0  # ids read from the store (tests and benchmarks)

    def get(self, chunk_ids: Sequence[str], generation: int) -> dict[str, Value]:
        """The values of the ids the store has, as `load` returns them (`generation`: read before the call)."""
        found: dict[str, Value] = {}
        with self._lock:
            if self._kept_at != generation:
                self._items.clear()
                self._kept_at = generation
            for cid in chunk_ids:
                value = self._items.get(cid)
                if value is not None:
                    self._items.move_to_end(cid)
                    found[cid] = value
        missing = [cid for cid in dict.fromkeys(chunk_ids) if cid not in found]
        if not missing:
            return found
        loaded = self._load(missing)
        self.loaded += len(missing)
        found.update(loaded)
        if self._generation() == generation:
            with self._lock:
                if self._kept_at == generation:
                    self._items.update(loaded)
                    while len(self._items) > self.capacity:
                        self._items.popitem(last=False)
        return found


def row_cosines(stored: dict[str, np.ndarray], readings: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each chunk's cosine to every reading of the question (`readings`: dim × k), and its best sentence's.

    `stored` holds each chunk's rows as the sentence index keeps them (its vector, then its sentences',
    float16). All candidates' rows go through one product instead of two small ones per chunk: at ~50
    candidates the per-chunk conversions and products were ~0.7 ms of a 10k search. A chunk without
    sentence rows has its own cosine as its best sentence's.
    """
    if not stored:
        return {}
    ids = list(stored)
    counts = np.fromiter((len(stored[cid]) for cid in ids), dtype=np.intp, count=len(ids))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    cosines = np.concatenate([stored[cid] for cid in ids]).astype(np.float32) @ readings
    chunk = cosines[starts].copy()
    cosines[starts] = -np.inf  # each chunk's block is its row, then its sentences': keep the sentences
    best = np.maximum.reduceat(cosines, starts, axis=0)
    best = np.where((counts > 1)[:, None], best, chunk)  # a lone row is its own best sentence
    return {cid: (chunk[i], best[i]) for i, cid in enumerate(ids)}
