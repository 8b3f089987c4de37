"""The BM25 keyword index kept in memory, rebuilt from stored tokens.

Tokens are computed once at ingest and kept in the catalog, so a restart
rebuilds postings from JSON lists without running jieba again. The index
remembers the catalog generation it reflects; `sync` reloads when another
process (or thread) changed the store.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from .bm25 import InvertedIndex
from .catalog import Catalog


class KeywordIndex:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self._index = InvertedIndex()
        self._tokens: dict[str, list[str]] = {}
        self._generation = -1
        self._lock = threading.RLock()
        self._by_key: dict[str, set[str]] | None = None  # doc key -> chunk ids, built lazily
        self._allowed_cache: dict[frozenset[str], set[str]] = {}
        self.reload()

    def reload(self) -> None:
        with self._lock:
            generation = self.catalog.generation()
            index = InvertedIndex()
            tokens: dict[str, list[str]] = {}
            for cid, toks in self.catalog.token_rows():
                index.add(cid, toks)
                tokens[cid] = toks
            self._index, self._tokens, self._generation = index, tokens, generation
            self._by_key, self._allowed_cache = None, {}

    def sync(self) -> bool:
        """Reload when the catalog changed behind our back; True if it did."""
        if self.catalog.generation() != self._generation:
            self.reload()
            return True
        return False

    def add(self, rows: Iterable[tuple[str, list[str]]]) -> None:
        with self._lock:
            for cid, toks in rows:
                self._index.add(cid, toks)
                self._tokens[cid] = toks
            self._by_key, self._allowed_cache = None, {}
            self._generation = self.catalog.generation()

    def remove(self, chunk_ids: Iterable[str]) -> None:
        with self._lock:
            for cid in chunk_ids:
                toks = self._tokens.pop(cid, None)
                self._index.remove(cid, toks)
            self._by_key, self._allowed_cache = None, {}
            self._generation = self.catalog.generation()

    def mark_synced(self) -> None:
        with self._lock:
            self._generation = self.catalog.generation()

    def score(self, terms: list[str], allowed: set[str] | None) -> dict[str, float]:
        with self._lock:
            return self._index.score(terms, allowed)

    def doc_freq(self, term: str, allowed: set[str] | None) -> int:
        with self._lock:
            return self._index.doc_freq(term, allowed)

    def idf(self, term: str, allowed: set[str] | None, n_docs: int | None = None) -> float:
        with self._lock:
            return self._index.idf_of(term, allowed, n_docs)

    def chunk_ids_of(self, doc_keys: Iterable[str]) -> set[str] | None:
        """Chunk ids of these document versions ("doc@vN"); None means "every chunk".

        The None fast path matters: most questions may see the whole corpus, and
        then BM25 needs no per-posting membership test.
        """
        keys = frozenset(doc_keys)
        with self._lock:
            by_key: dict[str, set[str]] = {}
            for cid in self._tokens if self._by_key is None else ():
                by_key.setdefault(cid.rsplit("#", 1)[0], set()).add(cid)
            if self._by_key is None:
                self._by_key = by_key
            if keys >= self._by_key.keys():
                return None
            cached = self._allowed_cache.get(keys)
            if cached is None:
                cached = set().union(*(self._by_key.get(k, set()) for k in keys))
                self._allowed_cache = {keys: cached}
            return cached

    def has(self, chunk_id: str) -> bool:
        return chunk_id in self._tokens

    def tokens_of(self, chunk_id: str) -> list[str]:
        return self._tokens.get(chunk_id, [])

    def __len__(self) -> int:
        return len(self._index)
