"""Reference implementations the engine's scoring is checked against (the oracles).

Each one is written from its textbook definition, as plainly as possible and
independently of `rag_core`: loops over every document, no caches, no heaps.
test_bm25.py and test_fusion.py compare the engine with them on random inputs,
so a faster rewrite in `rag_core.search` has to keep giving the same numbers.
"""

from __future__ import annotations

import math


def reference_bm25(corpus: list[list[str]], query: list[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """Okapi BM25 of each document in `corpus` for `query`, with the +1 (Lucene) IDF that is never negative."""
    n = len(corpus)
    avg = sum(len(d) for d in corpus) / n
    out = []
    for doc in corpus:
        s = 0.0
        for term in set(query):
            df = sum(1 for d in corpus if term in d)
            tf = doc.count(term)
            if tf == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            s += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / avg))
        out.append(s)
    return out


def reference_rrf(rankings: list[list[str]], k: int = 60) -> dict[str, float]:
    """Reciprocal rank fusion (Cormack et al. 2009): score(d) = Σ over rankings holding d of 1 / (k + rank of d), ranks from 1."""
    every_id = {item for ranking in rankings for item in ranking}
    return {item: sum(1 / (k + ranking.index(item) + 1) for ranking in rankings if item in ranking) for item in every_id}


def reference_ranks(scores: dict[str, float]) -> list[str]:
    """Ids from the highest score down; equal scores in id order."""
    return [item for _, item in sorted((-score, item) for item, score in scores.items())]


def reference_coverage(weights: dict[str, float], chunk_terms: set[str], synonyms: dict[str, set[str]]) -> float:
    """Keyword coverage: the weighted share of query terms the chunk holds, a term or one of its synonyms counting as held."""
    held = [term for term in weights if term in chunk_terms or any(s in chunk_terms for s in synonyms.get(term, ()))]
    total = sum(weights.values())
    return sum(weights[term] for term in held) / total if total > 0 else 0.0
