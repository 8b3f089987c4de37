"""The BM25 keyword index kept in memory, rebuilt from stored tokens.

Tokens are computed once at ingest and kept in the catalog, so a restart
rebuilds postings from JSON lists without running jieba again, and a start
loads the last start's result from a snapshot in the data dir when the catalog
has not changed since (`keyword_snapshot`). The index remembers the catalog
generation it reflects; `sync` reloads when another process (or thread) changed
the store.

Memory and pauses at 100k chunks: token strings are interned (one object per
vocabulary word instead of one per occurrence: 806 → 229 MiB measured), and
after a rebuild the long-lived index is moved out of the cyclic garbage
collector's generations (`gc.freeze`), which otherwise walks its millions of
references every few thousand allocations (100k p95 333 → 190 ms measured).
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..documents.catalog import Catalog
from . import keyword_snapshot
from .bm25 import InvertedIndex, TopScores, idf
from .keyword_snapshot import Snapshot, catalog_key, snapshot_path
from .vector_store import key_of_chunk
from .visibility import Visible

DOC_FREQS_KEPT = 50_000  # (view, term) counts kept between questions
FREEZE_ABOVE = 20_000  # chunks; below this a full collection is cheap and freezing buys nothing


@dataclass(frozen=True)
class KeywordView:
    """The visible chunks of one question and BM25's statistics over them (kept between questions)."""

    allowed: frozenset[str] | None  # None: every chunk in the index
    n_docs: int
    total_len: int


class KeywordIndex:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self._index = InvertedIndex()
        self._tokens: dict[str, list[str]] = {}
        self._generation = -1
        self._lock = threading.RLock()
        self._by_key: dict[str, set[str]] = {}  # doc key -> chunk ids, kept up to date on add/remove
        self._views: dict[frozenset[str], KeywordView] = {}
        self._doc_freqs: dict[tuple[frozenset[str] | None, str], int] = {}  # per view and term, until a change
        self.reload(snapshot=snapshot_path(catalog))

    def reload(self, snapshot: Path | None = None) -> None:
        """Rebuild from the catalog's tokens; with `snapshot`, load that file instead when it matches the catalog
        (and write it after a rebuild). Only a start passes it: a running process keeps its index by add/remove."""
        with self._lock:
            generation = self.catalog.generation()
            # the key before the rows: a write in between makes the saved key older than its rows, never newer
            # (generations only grow), so no later catalog state matches rows it does not hold
            key = catalog_key(self.catalog) if snapshot is not None else ""
            snap = keyword_snapshot.load(snapshot, key) if snapshot is not None else None
            if snap is not None:
                index = InvertedIndex.restored(snap.postings, snap.lengths, snap.total_len)
                tokens = snap.tokens
                by_key: dict[str, set[str]] = {}
                for cid in tokens:
                    by_key.setdefault(key_of_chunk(cid), set()).add(cid)
            else:
                index, tokens, by_key = self._rebuild()
                if snapshot is not None and tokens:
                    keyword_snapshot.save(snapshot, key, Snapshot(index.postings, index.lengths, index.total_len, tokens))
            self._index, self._tokens, self._by_key, self._generation = index, tokens, by_key, generation
            self._views = {}
            self._doc_freqs = {}
        if len(tokens) >= FREEZE_ABOVE:
            # unfreeze first, so what an earlier freeze kept (the previous index) can be collected
            gc.unfreeze()
            gc.collect()
            gc.freeze()

    def _rebuild(self) -> tuple[InvertedIndex, dict[str, list[str]], dict[str, set[str]]]:
        index = InvertedIndex()
        tokens: dict[str, list[str]] = {}
        by_key: dict[str, set[str]] = {}
        intern = sys.intern
        for cid, toks in self.catalog.token_rows():
            toks = [intern(t) for t in toks]
            index.add(cid, toks)
            tokens[cid] = toks
            by_key.setdefault(key_of_chunk(cid), set()).add(cid)
        return index, tokens, by_key

    def sync(self) -> bool:
        """Reload when the catalog changed behind our back; True if it did."""
        if self.catalog.generation() != self._generation:
            self.reload()
            return True
        return False

    def add(self, rows: Iterable[tuple[str, list[str]]]) -> None:
        with self._lock:
            for cid, toks in rows:
                toks = [sys.intern(t) for t in toks]
                self._index.add(cid, toks)
                self._tokens[cid] = toks
                self._by_key.setdefault(key_of_chunk(cid), set()).add(cid)
            self._views = {}
            self._doc_freqs = {}
            self._generation = self.catalog.generation()

    def remove(self, chunk_ids: Iterable[str]) -> None:
        with self._lock:
            for cid in chunk_ids:
                toks = self._tokens.pop(cid, None)
                self._index.remove(cid, toks)
                key = key_of_chunk(cid)
                ids = self._by_key.get(key)
                if ids is not None:
                    ids.discard(cid)
                    if not ids:
                        del self._by_key[key]
            self._views = {}
            self._doc_freqs = {}
            self._generation = self.catalog.generation()

    def mark_synced(self) -> None:
        with self._lock:
            self._generation = self.catalog.generation()

    def view(self, visible: Visible) -> KeywordView:
        """The visible chunks of one question with their BM25 statistics (`allowed` None: every chunk).

        Decided from what the index holds now, not from the catalog snapshot in
        `visible`: a document indexed since that snapshot stays outside the
        view. The "every chunk" case matters for speed: BM25 then needs no
        per-posting membership test. Views are cached until the index changes
        (building one at 100k chunks takes tens of ms).
        """
        keys = visible.keys
        with self._lock:
            found = self._views.get(keys)
            if found is None:
                if keys >= self._by_key.keys():
                    found = KeywordView(None, len(self._index), self._index.total_len)
                else:
                    allowed = frozenset().union(*(self._by_key.get(k, ()) for k in keys))
                    n_docs, total = self._index.stats(allowed)
                    found = KeywordView(allowed, n_docs, total)
                if len(self._views) >= 8:
                    self._views.pop(next(iter(self._views)))
                self._views[keys] = found
            return found

    def score(self, terms: list[str], visible: Visible) -> dict[str, float]:
        """BM25 of the visible chunks; the view is taken under the same lock as the scoring."""
        with self._lock:
            view = self.view(visible)
            return self._index.score(terms, view.allowed, stats=(view.n_docs, view.total_len))

    def top(self, terms: list[str], visible: Visible, n: int) -> TopScores:
        """`score`'s scores of the visible chunks with the best `n` picked (what search uses)."""
        with self._lock:
            view = self.view(visible)
            return self._index.top(terms, n, view.allowed, stats=(view.n_docs, view.total_len))

    def doc_freq(self, term: str, visible: Visible) -> int:
        """Visible chunks using `term` (a count over its postings for a role's view: kept per view and term)."""
        with self._lock:
            allowed = self.view(visible).allowed
            if allowed is None:
                return self._index.doc_freq(term)
            key = (allowed, term)
            found = self._doc_freqs.get(key)
            if found is None:
                if len(self._doc_freqs) >= DOC_FREQS_KEPT:
                    self._doc_freqs = {}
                found = self._doc_freqs[key] = self._index.doc_freq(term, allowed)
            return found

    def idf(self, term: str, visible: Visible) -> float:
        with self._lock:
            view = self.view(visible)
            return idf(view.n_docs, self.doc_freq(term, visible)) if view.n_docs else 0.0

    def has(self, chunk_id: str) -> bool:
        return chunk_id in self._tokens

    def tokens_of(self, chunk_id: str) -> list[str]:
        return self._tokens.get(chunk_id, [])

    def __len__(self) -> int:
        return len(self._index)
