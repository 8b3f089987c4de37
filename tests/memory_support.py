"""Shared helpers for the memory tests (no tests here).

The real e5 embedder is used everywhere; the wrapper only memoises vectors of texts
already seen in this process, so repeated sentences across tests are embedded once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import numpy as np

from rag_core.memory import MemoryStore
from rag_core.search.embedding import load_embedder

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


class MemoEmbedder:
    """Same vectors as the wrapped model; each distinct text is embedded once per process."""

    def __init__(self, inner):
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self._passages: dict[str, np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}

    def embed_passages(self, texts):
        todo = [t for t in dict.fromkeys(texts) if t not in self._passages]
        if todo:
            for t, v in zip(todo, self.inner.embed_passages(todo), strict=True):
                self._passages[t] = v
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self._passages[t] for t in texts])

    def embed_query(self, text):
        if text not in self._queries:
            self._queries[text] = self.inner.embed_query(text)
        return self._queries[text]


@lru_cache(maxsize=1)
def e5() -> MemoEmbedder:
    return MemoEmbedder(load_embedder("e5"))


def make_store(tmp_path: Path, **kwargs) -> MemoryStore:
    return MemoryStore(tmp_path / "memory.sqlite3", e5(), **kwargs)
