"""BM25 scoring as small pure functions over an inverted index.

Kept separate from storage so it can be tested against a reference
implementation (rank_bm25's BM25Okapi with the same IDF) and benchmarked.
A chunk that shares no term with the query is never touched, so its score is
an exact 0.0 — the property that lets the retriever say "nothing here".

`top` is what search calls: the same sums over numpy arrays (each a chunk's terms added in the
question's order with the same IEEE operations, so every score is `score`'s bit for bit) and the
best n picked without sorting every scored chunk.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

TERM_ARRAYS_KEPT = 4096  # query terms whose postings are kept as arrays until the index changes
K1 = 1.2
B = 0.75


def idf(n_docs: int, doc_freq: int) -> float:
    """Lucene-style IDF: always positive, highest for terms in few chunks."""
    return math.log(1.0 + (n_docs - doc_freq + 0.5) / (doc_freq + 0.5))


def term_score(tf: int, doc_len: int, avg_len: float, term_idf: float, k1: float = K1, b: float = B) -> float:
    norm = k1 * (1.0 - b + b * doc_len / avg_len) if avg_len > 0 else k1
    return term_idf * tf * (k1 + 1.0) / (tf + norm)


@dataclass
class TopScores:
    """The best chunks of one question by BM25 (`order`, best first, ties by id) and any chunk's score."""

    order: list[str] = field(default_factory=list)
    _scores: np.ndarray | None = None
    _pos: dict[str, int] = field(default_factory=dict)

    def get(self, chunk_id: str, default: float = 0.0) -> float:
        """The chunk's score, `default` when it has none (it shares no term with the question)."""
        i = self._pos.get(chunk_id)
        if i is None or self._scores is None or not self._scores[i] > 0.0:
            return default
        return float(self._scores[i])


class InvertedIndex:
    """In-memory postings: term -> {chunk_id: tf}; plus per-chunk lengths."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = {}
        self.lengths: dict[str, int] = {}
        self.total_len = 0
        self._norms: dict[tuple[float, float, float], dict[str, float]] = {}  # per (avgdl, k1, b); cleared on change
        self._arrays: _Arrays | None = None  # `top`'s numpy form of the index; dropped on every change

    @classmethod
    def restored(cls, postings: dict[str, dict[str, int]], lengths: dict[str, int], total_len: int) -> InvertedIndex:
        """An index over saved postings and lengths (a keyword snapshot), as the adds that built them left it."""
        index = cls()
        index.postings, index.lengths, index.total_len = postings, lengths, total_len
        return index

    def __len__(self) -> int:
        return len(self.lengths)

    def add(self, chunk_id: str, tokens: Iterable[str]) -> None:
        if chunk_id in self.lengths:
            self.remove(chunk_id)
        self._norms, self._arrays = {}, None
        counts = Counter(tokens)
        length = sum(counts.values())
        self.lengths[chunk_id] = length
        self.total_len += length
        for term, tf in counts.items():
            self.postings.setdefault(term, {})[chunk_id] = tf

    def remove(self, chunk_id: str, tokens: Iterable[str] | None = None) -> None:
        length = self.lengths.pop(chunk_id, None)
        if length is None:
            return
        self._norms, self._arrays = {}, None
        self.total_len -= length
        terms = set(tokens) if tokens is not None else list(self.postings)
        for term in terms:
            plist = self.postings.get(term)
            if plist and chunk_id in plist:
                del plist[chunk_id]
                if not plist:
                    del self.postings[term]

    def doc_freq(self, term: str, allowed: AbstractSet[str] | None = None) -> int:
        plist = self.postings.get(term, {})
        if allowed is None:
            return len(plist)
        return sum(1 for cid in plist if cid in allowed)

    def stats(self, allowed: AbstractSet[str] | None = None) -> tuple[int, int]:
        """(number of chunks, total length) over the allowed chunks: BM25's N and avgdl."""
        if allowed is None:
            return len(self.lengths), self.total_len
        visible = [cid for cid in allowed if cid in self.lengths]
        return len(visible), sum(self.lengths[cid] for cid in visible)

    def score(
        self,
        query_terms: Iterable[str],
        allowed: AbstractSet[str] | None = None,
        k1: float = K1,
        b: float = B,
        stats: tuple[int, int] | None = None,
    ) -> dict[str, float]:
        """BM25 over the allowed chunks only (statistics too), for unique query terms.

        Returns only chunks with a positive score; every other chunk scores 0.
        `stats` is `self.stats(allowed)` when the caller keeps it between questions.
        """
        n_docs, total = stats if stats is not None else self.stats(allowed)
        if n_docs == 0:
            return {}
        avg_len = total / n_docs
        norms = self._norms_for(avg_len, k1, b)
        k1_plus_1 = k1 + 1.0
        scores: dict[str, float] = {}
        get = scores.get
        for term in dict.fromkeys(query_terms):
            plist = self.postings.get(term)
            if not plist:
                continue
            items = plist.items() if allowed is None else [(c, tf) for c, tf in plist.items() if c in allowed]
            if not items:
                continue
            term_idf = idf(n_docs, len(items))
            # term_score inlined, the same operations in the same order (identical floats), norms kept per avgdl
            for cid, tf in items:
                scores[cid] = get(cid, 0.0) + term_idf * tf * k1_plus_1 / (tf + norms[cid])
        return scores

    def _norms_for(self, avg_len: float, k1: float, b: float) -> dict[str, float]:
        """term_score's length norm of every chunk for one avgdl (a few ms at 10k chunks, then reused)."""
        key = (avg_len, k1, b)
        norms = self._norms.get(key)
        if norms is None:
            if avg_len > 0:
                norms = {cid: k1 * (1.0 - b + b * length / avg_len) for cid, length in self.lengths.items()}
            else:
                norms = dict.fromkeys(self.lengths, k1)
            if len(self._norms) >= 4:
                self._norms.pop(next(iter(self._norms)))
            self._norms[key] = norms
        return norms

    def top(
        self,
        query_terms: Iterable[str],
        n: int,
        allowed: AbstractSet[str] | None = None,
        k1: float = K1,
        b: float = B,
        stats: tuple[int, int] | None = None,
    ) -> TopScores:
        """`score`'s scores (the same floats) with the best `n` by (score descending, id), as `fusion.ranks` orders.

        At 10k chunks a question's terms touch some 5k chunks: a dict of their scores and a heap over it
        took 3-4 ms of a search, these arrays a fraction of it (and the gap grows with the store).
        """
        n_docs, total = stats if stats is not None else self.stats(allowed)
        if n_docs == 0 or not self.lengths:
            return TopScores()
        arrays = self._arrays
        if arrays is None:
            arrays = self._arrays = _Arrays(self)
        norms = arrays.norms(self._norms_for(total / n_docs, k1, b))
        mask = None if allowed is None else arrays.mask(allowed)
        k1_plus_1 = k1 + 1.0
        scores = np.zeros(len(arrays.ids), dtype=np.float64)
        for term in dict.fromkeys(query_terms):
            found = arrays.term(term, self.postings.get(term))
            if found is None:
                continue
            idx, counts = found
            if mask is not None:
                keep = mask[idx]
                idx, counts = idx[keep], counts[keep]
            if not len(idx):
                continue
            tf = counts.astype(np.float64)  # exact; float64 as score's Python floats (float32 would round)
            term_idf = idf(n_docs, len(idx))
            # score's loop over arrays: (idf * tf * (k1 + 1)) / (tf + norm) added to the sum so far, per chunk
            scores[idx] += term_idf * tf * k1_plus_1 / (tf + norms[idx])
        hit = np.flatnonzero(scores > 0.0)
        if n < len(hit):
            cut = np.partition(scores[hit], len(hit) - n)[len(hit) - n]  # the n-th best score
            hit = hit[scores[hit] >= cut]  # every chunk tied with it too; the ids decide below
        # positions follow the ids' sorted order, so the position breaks ties as the id does
        best = hit[np.lexsort((hit, -scores[hit]))][:n]
        return TopScores([arrays.ids[i] for i in best], scores, arrays.pos)

    def idf_of(self, term: str, allowed: AbstractSet[str] | None = None, n_docs: int | None = None) -> float:
        """IDF over the allowed chunks; pass `n_docs` when scoring many terms against one set."""
        if n_docs is None:
            n_docs = self.stats(allowed)[0]
        return idf(n_docs, self.doc_freq(term, allowed)) if n_docs else 0.0


class _Arrays:
    """The index as numpy arrays for `top`: chunk positions in id order, each queried term's postings."""

    def __init__(self, index: InvertedIndex):
        self.ids = sorted(index.lengths)
        self.pos = {cid: i for i, cid in enumerate(self.ids)}
        self._terms: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
        self._norms: tuple[dict[str, float], np.ndarray] | None = None
        self._masks: dict[AbstractSet[str], np.ndarray] = {}

    def norms(self, by_id: dict[str, float]) -> np.ndarray:
        """`_norms_for`'s floats by position (the same numbers, so the same scores)."""
        if self._norms is None or self._norms[0] is not by_id:
            self._norms = (by_id, np.fromiter((by_id[c] for c in self.ids), dtype=np.float64, count=len(self.ids)))
        return self._norms[1]

    def mask(self, allowed: AbstractSet[str]) -> np.ndarray:
        """Which positions `allowed` holds (kept per frozenset: a keyword view's set lives until the index changes)."""
        kept = isinstance(allowed, frozenset)
        found = self._masks.get(allowed) if kept else None
        if found is None:
            found = np.zeros(len(self.ids), dtype=bool)
            found[[self.pos[c] for c in allowed if c in self.pos]] = True
            if kept:
                if len(self._masks) >= 8:
                    self._masks.pop(next(iter(self._masks)))
                self._masks[allowed] = found
        return found

    def term(self, term: str, plist: dict[str, int] | None) -> tuple[np.ndarray, np.ndarray] | None:
        """(positions, tf) of a term's postings as int32 (8 bytes a posting: at most ~80 MB were every term of a
        100k index kept); None when no chunk has it."""
        if not plist:
            return None
        found = self._terms.get(term)
        if found is None:
            pos = self.pos
            idx = np.fromiter((pos[c] for c in plist), dtype=np.int32, count=len(plist))
            tf = np.fromiter(plist.values(), dtype=np.int32, count=len(plist))
            if len(self._terms) >= TERM_ARRAYS_KEPT:
                self._terms.pop(next(iter(self._terms)))
            found = self._terms[term] = (idx, tf)
        return found
