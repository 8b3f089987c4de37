"""The corpus centroid: the background a question's cosine is measured against.

The mean cosine of a question to every chunk equals `q · centroid` for
normalised vectors, so keeping a running sum of the chunk vectors (persisted in
the catalog, updated on every ingest and delete) gives the background in O(dim)
per question instead of a pass over the corpus.
"""

from __future__ import annotations

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
        self._n = 0
        raw = catalog.get_meta("centroid")
        data = json.loads(raw) if raw else {}
        if data.get("model") == model_id:
            self._sum = np.asarray(data["sum"], dtype=np.float64)
            self._n = int(data["n"])
        else:  # first start, or the store was re-embedded: recompute from the vectors
            vecs = vectors.get_vectors(vectors.ids())
            if vecs:
                self._sum = np.sum(list(vecs.values()), axis=0).astype(np.float64)
            self._n = len(vecs)
            self._save()

    @property
    def vector(self) -> np.ndarray | None:
        """The mean chunk vector, or None for an empty store."""
        if self._n <= 0:
            return None
        return (self._sum / self._n).astype(np.float32)

    def add(self, vectors: np.ndarray) -> None:
        self._sum = self._sum + vectors.sum(axis=0)
        self._n += len(vectors)
        self._save()

    def remove(self, chunk_ids: list[str]) -> None:
        """Subtract chunks about to be deleted (their vectors are read back from the store)."""
        vecs = self.vectors.get_vectors(chunk_ids) if chunk_ids else {}
        if vecs:
            self._sum = self._sum - np.sum(list(vecs.values()), axis=0)
            self._n -= len(vecs)
            self._save()

    def _save(self) -> None:
        self.catalog.set_meta("centroid", json.dumps({"model": self.model_id, "n": self._n, "sum": self._sum.tolist()}))
