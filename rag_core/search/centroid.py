"""The corpus background a question's cosine is measured against: its mean and spread.

The mean cosine of a question to every chunk equals `q · centroid` for
normalised vectors, and its variance `qᵀ(S/n)q − (q · centroid)²` with S the
sum of the chunks' outer products; keeping both sums (persisted in the catalog,
updated on every ingest and delete) gives a question's background and spread
in O(dim²) instead of a pass over the corpus. A cosine is then judged by how
many spreads it stands above the background — a scale every embedding model shares.
"""

from __future__ import annotations

import base64
import json

import numpy as np

from ..documents.catalog import Catalog
from .vector_store import ChromaVectorStore


class CorpusCentroid:
    def __init__(self, catalog: Catalog, vectors: ChromaVectorStore, model_id: str, dim: int):
        self.catalog = catalog
        self.vectors = vectors
        self.model_id = model_id
        self._sum = np.zeros(dim, dtype=np.float64)
        self._second = np.zeros((dim, dim), dtype=np.float64)
        self._n = 0
        raw = catalog.get_meta("centroid")
        data = json.loads(raw) if raw else {}
        if data.get("model") == model_id and "second" in data:
            self._sum = np.asarray(data["sum"], dtype=np.float64)
            self._second = np.frombuffer(base64.b64decode(data["second"]), dtype=np.float64).reshape(dim, dim).copy()
            self._n = int(data["n"])
        else:  # first start, re-embedded, or a store from before the spread: recompute from the vectors
            vecs = vectors.get_vectors(vectors.ids())
            if vecs:
                mat = np.vstack(list(vecs.values())).astype(np.float64)
                self._sum = mat.sum(axis=0)
                self._second = mat.T @ mat
            self._n = len(vecs)
            self._save()

    @property
    def vector(self) -> np.ndarray | None:
        """The mean chunk vector, or None for an empty store."""
        if self._n <= 0:
            return None
        return (self._sum / self._n).astype(np.float32)

    def background(self, query: np.ndarray) -> float:
        """The question's mean cosine to the corpus (0 for an empty store)."""
        return float(query @ self.vector) if self._n > 0 else 0.0

    def spread(self, query: np.ndarray, floor: float = 0.01) -> float:
        """Standard deviation of the question's cosine over the corpus (at least `floor`)."""
        if self._n < 2:
            return 0.05
        q = np.asarray(query, dtype=np.float64)
        mean = float(q @ self._sum) / self._n
        variance = float(q @ self._second @ q) / self._n - mean * mean
        return max(floor, variance**0.5 if variance > 0 else 0.0)

    def add(self, vectors: np.ndarray) -> None:
        mat = np.asarray(vectors, dtype=np.float64)
        self._sum = self._sum + mat.sum(axis=0)
        self._second = self._second + mat.T @ mat
        self._n += len(vectors)
        self._save()

    def remove(self, chunk_ids: list[str]) -> None:
        """Subtract chunks about to be deleted (their vectors are read back from the store)."""
        vecs = self.vectors.get_vectors(chunk_ids) if chunk_ids else {}
        if vecs:
            mat = np.vstack(list(vecs.values())).astype(np.float64)
            self._sum = self._sum - mat.sum(axis=0)
            self._second = self._second - mat.T @ mat
            self._n -= len(vecs)
            self._save()

    def _save(self) -> None:
        second = base64.b64encode(self._second.tobytes()).decode("ascii")
        self.catalog.set_meta(
            "centroid", json.dumps({"model": self.model_id, "n": self._n, "sum": self._sum.tolist(), "second": second})
        )
