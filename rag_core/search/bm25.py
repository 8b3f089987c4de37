"""BM25 scoring as small pure functions over an inverted index.

Kept separate from storage so it can be tested against a reference
implementation (rank_bm25's BM25Okapi with the same IDF) and benchmarked.
A chunk that shares no term with the query is never touched, so its score is
an exact 0.0 — the property that lets the retriever say "nothing here".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

K1 = 1.2
B = 0.75


def idf(n_docs: int, doc_freq: int) -> float:
    """Lucene-style IDF: always positive, highest for terms in few chunks."""
    return math.log(1.0 + (n_docs - doc_freq + 0.5) / (doc_freq + 0.5))


def term_score(tf: int, doc_len: int, avg_len: float, term_idf: float, k1: float = K1, b: float = B) -> float:
    norm = k1 * (1.0 - b + b * doc_len / avg_len) if avg_len > 0 else k1
    return term_idf * tf * (k1 + 1.0) / (tf + norm)


class InvertedIndex:
    """In-memory postings: term -> {chunk_id: tf}; plus per-chunk lengths."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = {}
        self.lengths: dict[str, int] = {}
        self.total_len = 0
        self._norms: dict[tuple[float, float, float], dict[str, float]] = {}  # per (avgdl, k1, b); cleared on change

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
        self._norms = {}
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
        self._norms = {}
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

    def idf_of(self, term: str, allowed: AbstractSet[str] | None = None, n_docs: int | None = None) -> float:
        """IDF over the allowed chunks; pass `n_docs` when scoring many terms against one set."""
        if n_docs is None:
            n_docs = self.stats(allowed)[0]
        return idf(n_docs, self.doc_freq(term, allowed)) if n_docs else 0.0
