"""The vectors this process wrote last, searched exactly next to Chroma's approximate index.

Chroma's HNSW search is approximate. A record written after a query is read back with its
own vector (`vector_store.unreachable_rows`), yet the next query with a *different* vector
can still rank it below records it beats by cosine (seen once in CI at stop 68: trial 17
of tests/test_vector_writes.py's 40, a one-chunk upload after a search). A policy
uploaded a minute ago must be found for the first question about it, so the store keeps
the last `CAPACITY` vectors it wrote and scores them exactly at every query: 1,024 × 384
floats, one matrix product kept packed between writes (0.16 ms a query); after a long
ingest only its last rows stay. Deletes and resets drop rows. A row the approximate search did not return
is checked against Chroma before it is merged, and dropped when another process deleted it
(review 373 #2: a document the CLI deleted kept half of the 30 vector slots).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from .embedding import unit_rows
from .vector_records import VectorMatch

CAPACITY = 1024  # rows: 0.16 ms a query at 1,024, 0.45 ms at 4,096 (bench/recent_writes_cost.py, load 0.9)


class RecentWrites:
    """Bounded, thread-safe map chunk id → (its partition, its unit vector), oldest evicted first."""

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self._rows: OrderedDict[str, tuple[tuple[str, ...], np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()
        self._packed: tuple[list[str], np.ndarray, np.ndarray, list[tuple[str, ...]]] | None = None  # `_pack`

    def __len__(self) -> int:
        return len(self._rows)

    def add(self, audience: tuple[str, ...], ids: Sequence[str], vectors: np.ndarray) -> None:
        units = unit_rows(vectors)
        with self._lock:
            for cid, vec in zip(ids, units):
                self._rows.pop(cid, None)  # re-written: now the newest (a move to another partition replaces the old one)
                self._rows[cid] = (audience, vec)
            while len(self._rows) > self.capacity:
                self._rows.popitem(last=False)
            self._packed = None

    def drop(self, ids: Iterable[str]) -> None:
        with self._lock:
            removed = [cid for cid in ids if self._rows.pop(cid, None) is not None]
            if removed:  # nothing removed keeps the packed rows (378 #5: every query restacked them)
                self._packed = None

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
            self._packed = None

    def nearest(
        self, query: np.ndarray, n: int, audiences: Iterable[tuple[str, ...]], hidden: Callable[[str], bool]
    ) -> list[VectorMatch]:
        """The n best rows by exact cosine among the given partitions, skipping what `hidden` says."""
        ids, matrix, codes, partitions = self._pack()
        allowed = set(audiences)
        wanted = [code for code, audience in enumerate(partitions) if audience in allowed]
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(q))
        if not ids or not wanted or n <= 0 or norm == 0.0:
            return []
        cosines = matrix @ (q / norm)
        if len(wanted) < len(partitions):  # another partition's rows are never compared with the question
            cosines[~np.isin(codes, wanted)] = -np.inf
        found: list[VectorMatch] = []
        for order in (_best(cosines, 2 * n), _best(cosines, len(cosines))):  # all of them only when many are hidden
            found = [VectorMatch(ids[i], float(cosines[i])) for i in order
                     if cosines[i] != -np.inf and not hidden(ids[i])][:n]
            if len(found) == n or len(order) == len(cosines):
                break
        return found

    def _pack(self) -> tuple[list[str], np.ndarray, np.ndarray, list[tuple[str, ...]]]:
        """The rows as one matrix (ids, unit vectors, partition codes, partitions), rebuilt only after a change:
        stacking 4,096 vectors at every query cost 3.7 ms at load 0.9 (8 ms at load 2), 8× the packed query."""
        with self._lock:
            if self._packed is None:
                partitions = list(dict.fromkeys(aud for aud, _ in self._rows.values()))
                index = {aud: code for code, aud in enumerate(partitions)}
                matrix = (np.stack([vec for _, vec in self._rows.values()]) if self._rows
                          else np.zeros((0, 0), dtype=np.float32))
                codes = np.array([index[aud] for aud, _ in self._rows.values()], dtype=np.int32)
                self._packed = (list(self._rows), matrix, codes, partitions)
            return self._packed


def _best(cosines: np.ndarray, k: int) -> np.ndarray:
    """The indexes of the k highest cosines, highest first (a partial sort: 0.03 ms where argsort took 0.34)."""
    if k >= len(cosines):
        return np.argsort(-cosines, kind="stable")
    top = np.argpartition(-cosines, k)[:k]
    return top[np.argsort(-cosines[top], kind="stable")]


def merged(approximate: list[VectorMatch], exact: list[VectorMatch], n: int) -> list[VectorMatch]:
    """Both lists as one ranking, each chunk once (its higher cosine), the n best."""
    best: dict[str, VectorMatch] = {}
    for m in [*approximate, *exact]:
        if m.chunk_id not in best or m.cosine > best[m.chunk_id].cosine:
            best[m.chunk_id] = m
    return sorted(best.values(), key=lambda m: (-m.cosine, m.chunk_id))[:n]
