"""The vectors this process wrote last, searched exactly next to Chroma's approximate index.

Chroma's HNSW search is approximate. A record written after a query is read back with its
own vector (`vector_store.unreachable_rows`), yet the next query with a *different* vector
can still rank it below records it beats by cosine (seen once in CI at stop 68: trial 17
of tests/test_vector_writes.py's 40, a one-chunk upload after a search). A policy
uploaded a minute ago must be found for the first question about it, so the store keeps
the last `CAPACITY` vectors it wrote and scores them exactly at every query: 4,096 × 384
floats is one matrix product of well under a millisecond, and after a long ingest only
its last rows stay. Deletes and resets drop rows. A row the approximate search did not return
is checked against Chroma before it is merged, and dropped when another process deleted it
(review 373 #2: a document the CLI deleted kept half of the 30 vector slots).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from .vector_records import VectorMatch

CAPACITY = 4096


class RecentWrites:
    """Bounded, thread-safe map chunk id → (its partition, its unit vector), oldest evicted first."""

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self._rows: OrderedDict[str, tuple[tuple[str, ...], np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._rows)

    def add(self, audience: tuple[str, ...], ids: Sequence[str], vectors: np.ndarray) -> None:
        units = _unit_rows(np.asarray(vectors, dtype=np.float32))
        with self._lock:
            for cid, vec in zip(ids, units):
                self._rows.pop(cid, None)  # re-written: now the newest (a move to another partition replaces the old one)
                self._rows[cid] = (audience, vec)
            while len(self._rows) > self.capacity:
                self._rows.popitem(last=False)

    def drop(self, ids: Iterable[str]) -> None:
        with self._lock:
            for cid in ids:
                self._rows.pop(cid, None)

    def by_partition(self, ids: Iterable[str]) -> dict[tuple[str, ...], list[str]]:
        """The given ids this buffer holds, grouped by the partition they were written to."""
        grouped: dict[tuple[str, ...], list[str]] = {}
        with self._lock:
            for cid in ids:
                if cid in self._rows:
                    grouped.setdefault(self._rows[cid][0], []).append(cid)
        return grouped

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()

    def nearest(
        self, query: np.ndarray, n: int, audiences: Iterable[tuple[str, ...]], hidden: Callable[[str], bool]
    ) -> list[VectorMatch]:
        """The n best rows by exact cosine among the given partitions, skipping what `hidden` says."""
        allowed = set(audiences)
        with self._lock:
            rows = [(cid, vec) for cid, (aud, vec) in self._rows.items() if aud in allowed and not hidden(cid)]
        if not rows or n <= 0:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(q))
        if norm == 0.0:
            return []
        cosines = np.stack([vec for _, vec in rows]) @ (q / norm)
        best = np.argsort(-cosines, kind="stable")[:n]
        return [VectorMatch(rows[i][0], float(cosines[i])) for i in best]


def merged(approximate: list[VectorMatch], exact: list[VectorMatch], n: int) -> list[VectorMatch]:
    """Both lists as one ranking, each chunk once (its higher cosine), the n best."""
    best: dict[str, VectorMatch] = {}
    for m in [*approximate, *exact]:
        if m.chunk_id not in best or m.cosine > best[m.chunk_id].cosine:
            best[m.chunk_id] = m
    return sorted(best.values(), key=lambda m: (-m.cosine, m.chunk_id))[:n]


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms
