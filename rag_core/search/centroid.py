"""The corpus background a question's cosine is measured against: its mean and spread.

The mean cosine of a question to every chunk equals `q · centroid` for
normalised vectors, and its variance `qᵀ(S/n)q − (q · centroid)²` with S the
sum of the chunks' outer products; keeping both sums (persisted in the catalog,
updated on every ingest and delete) gives a question's background and spread
in O(dim²) instead of a pass over the corpus. A cosine is then judged by how
many spreads it stands above the background — a scale every embedding model shares.
A Chroma server down at a start that must recompute them leaves them empty (`complete`
False) until the assistant recomputes them at the server's return.

The sums are kept per audience (one part per audience tuple, as the vector store
partitions them) and added up over the parts a reader may see: a background taken
over documents the reader cannot read would move when one of them is added, and so
reveal that it exists.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterable, Sequence

import numpy as np

from ..documents.catalog import Catalog, Readable, visible_to
from ..errors import VectorServerDown
from ..types import Chunk
from .vector_store import ChromaVectorStore

META_KEY = "centroid"  # {"model", "parts": [audience, …]}; each part under "centroid/<audience>"
Audience = tuple[str, ...]


class _Part:
    """Sum, second moment and count of one audience's chunk vectors."""

    def __init__(self, dim: int):
        self.sum = np.zeros(dim, dtype=np.float64)
        self.second = np.zeros((dim, dim), dtype=np.float64)
        self.n = 0

    def to_json(self, model_id: str) -> str:
        second = base64.b64encode(self.second.tobytes()).decode("ascii")
        return json.dumps({"model": model_id, "n": self.n, "sum": self.sum.tolist(), "second": second})

    @classmethod
    def from_json(cls, raw: str, dim: int) -> _Part:
        data = json.loads(raw)
        part = cls(dim)
        part.sum = np.asarray(data["sum"], dtype=np.float64)
        part.second = np.frombuffer(base64.b64decode(data["second"]), dtype=np.float64).reshape(dim, dim).copy()
        part.n = int(data["n"])
        return part


def _label(audience: Audience) -> str:
    return ",".join(audience)


class CorpusCentroid:
    complete = True  # False: a Chroma server down at start left no background to read (`recompute` when it is back)

    def __init__(self, catalog: Catalog, vectors: ChromaVectorStore, model_id: str, dim: int):
        self.catalog = catalog
        self.vectors = vectors
        self.model_id = model_id
        self.dim = dim
        self._parts: dict[Audience, _Part] = {}
        self._lock = threading.Lock()
        raw = catalog.get_meta(META_KEY)
        data = json.loads(raw) if raw else {}
        if data.get("model") == model_id and "parts" in data:
            for label in data["parts"]:
                stored = catalog.get_meta(f"{META_KEY}/{label}")
                if stored:
                    self._parts[tuple(label.split(","))] = _Part.from_json(stored, dim)
        else:  # first start, re-embedded, or a store from before per-audience parts: recompute from the vectors
            try:
                self.recompute()
            except VectorServerDown:  # no background until the server is back (the assistant recomputes then)
                self.complete = False

    def recompute(self) -> None:
        """Every part summed again from the stored vectors (saved only once all were read)."""
        groups: dict[Audience, list[str]] = {}
        for chunk in self.catalog.all_chunks():
            groups.setdefault(tuple(chunk.audience) or ("all",), []).append(chunk.chunk_id)
        read = {audience: self.vectors.get_vectors(ids) for audience, ids in groups.items()}
        with self._lock:
            self._parts = {}
        for audience, vecs in read.items():
            if vecs:
                self._add(audience, np.vstack(list(vecs.values())).astype(np.float64), sign=1)
        self.complete = True
        for audience in self._parts:
            self._save_part(audience)
        self._save_index()

    # -- reading -----------------------------------------------------------------
    def _visible_parts(self, readable: Readable) -> list[_Part]:
        with self._lock:
            return [p for a, p in self._parts.items() if p.n > 0 and visible_to(a, readable)]

    def count(self, readable: Readable = None) -> int:
        """How many chunk vectors the reader's background is taken over."""
        return sum(p.n for p in self._visible_parts(readable))

    def vector(self, readable: Readable = None) -> np.ndarray | None:
        """The mean chunk vector the reader may see, or None when there is none."""
        parts = self._visible_parts(readable)
        n = sum(p.n for p in parts)
        if n <= 0:
            return None
        return (sum(p.sum for p in parts) / n).astype(np.float32)

    def background(self, query: np.ndarray, readable: Readable = None) -> float:
        """The question's mean cosine to the chunks the reader may see (0 when there are none)."""
        parts = self._visible_parts(readable)
        n = sum(p.n for p in parts)
        if n <= 0:
            return 0.0
        q = np.asarray(query, dtype=np.float64)
        return float(sum(float(q @ p.sum) for p in parts) / n)

    def spread(self, query: np.ndarray, floor: float = 0.01, readable: Readable = None) -> float:
        """Standard deviation of the question's cosine over the chunks the reader may see (at least `floor`)."""
        parts = self._visible_parts(readable)
        n = sum(p.n for p in parts)
        if n < 2:
            return 0.05
        q = np.asarray(query, dtype=np.float64)
        mean = sum(float(q @ p.sum) for p in parts) / n
        variance = sum(float(q @ p.second @ q) for p in parts) / n - mean * mean
        return max(floor, variance**0.5 if variance > 0 else 0.0)

    # -- writing -----------------------------------------------------------------
    def _add(self, audience: Audience, mat: np.ndarray, sign: int) -> None:
        with self._lock:
            part = self._parts.get(audience)
            if part is None:
                part = self._parts[audience] = _Part(self.dim)
            part.sum = part.sum + sign * mat.sum(axis=0)
            part.second = part.second + sign * (mat.T @ mat)
            part.n += sign * len(mat)

    def add(self, vectors: np.ndarray, audience: Iterable[str] = ("all",)) -> None:
        """Count new chunk vectors of one audience."""
        key = tuple(audience) or ("all",)
        fresh = key not in self._parts
        self._add(key, np.asarray(vectors, dtype=np.float64), sign=1)
        self._save_part(key)
        if fresh:
            self._save_index()

    def remove(self, chunks: Sequence[Chunk]) -> None:
        """Subtract chunks about to be deleted (their vectors are read back from the store)."""
        groups: dict[Audience, list[str]] = {}
        for chunk in chunks:
            groups.setdefault(tuple(chunk.audience) or ("all",), []).append(chunk.chunk_id)
        for audience, ids in groups.items():
            vecs = self.vectors.get_vectors(ids)
            if vecs:
                self._add(audience, np.vstack(list(vecs.values())).astype(np.float64), sign=-1)
                self._save_part(audience)

    def _save_part(self, audience: Audience) -> None:
        with self._lock:
            raw = self._parts[audience].to_json(self.model_id)
        self.catalog.set_meta(f"{META_KEY}/{_label(audience)}", raw)

    def _save_index(self) -> None:
        with self._lock:
            labels = [_label(a) for a in self._parts]
        self.catalog.set_meta(META_KEY, json.dumps({"model": self.model_id, "parts": labels}))
