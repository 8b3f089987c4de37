"""Pure functions that turn two rankings into one selection.

RRF fuses ranks (scale-free, k=60 by default); thresholds then decide which
fused candidates are evidence at all. A hit must be backed by at least one of:

- keywords: BM25 >= `bm25_threshold` AND the chunk covers at least
  `min_coverage` of the query's IDF mass (so one shared common word is not
  enough), or
- meaning: cosine >= the model's floor AND cosine - background >= margin,
  where background is the query's mean cosine to the corpus (q · centroid).
  A raw cosine cut fails with e5, whose cosines sit in a narrow band: an
  absent question scores as high as a paraphrase, but not as far above its
  own background.

Without either, the candidate is a near miss: shown in the trace, never in the prompt.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass


@dataclass(frozen=True)
class Thresholds:
    bm25: float
    min_coverage: float
    cosine_floor: float
    cosine_margin: float


@dataclass
class Candidate:
    chunk_id: str
    bm25: float = 0.0
    bm25_rank: int | None = None
    coverage: float = 0.0
    cosine: float | None = None
    cosine_rank: int | None = None
    margin: float | None = None
    fused: float = 0.0


def rrf(rank_lists: list[list[str]], k: int = 60) -> dict[str, float]:
    """Reciprocal rank fusion: sum of 1/(k + rank), ranks from 1; absent lists add 0."""
    fused: dict[str, float] = {}
    for ranking in rank_lists:
        for rank, cid in enumerate(ranking, start=1):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (k + rank)
    return fused


def _order(kv: tuple[str, float]) -> tuple[float, str]:
    return -kv[1], kv[0]


def ranks(scores: dict[str, float], n: int | None = None) -> list[str]:
    """Ids by descending score (ties by id, so results are deterministic); the first `n` only if given.

    With `n`, a heap selects them without sorting everything: at 100k chunks a
    common query word gives ~40k BM25 scores, and a full sort took 27 ms of the
    4 ms a heap needs (measured).
    """
    if n is not None and n < len(scores):
        return [cid for cid, _ in heapq.nsmallest(n, scores.items(), key=_order)]
    return [cid for cid, _ in sorted(scores.items(), key=_order)]


def passed_threshold(c: Candidate, t: Thresholds) -> str:
    """Which threshold admits the candidate ("" when none does)."""
    reasons = []
    if c.bm25 >= t.bm25 and c.coverage >= t.min_coverage:
        reasons.append(f"BM25 {c.bm25:.2f}≥{t.bm25:g} 且覆盖 {c.coverage:.0%}≥{t.min_coverage:.0%}")
    if c.cosine is not None and c.margin is not None and c.cosine >= t.cosine_floor and c.margin >= t.cosine_margin:
        reasons.append(f"余弦 {c.cosine:.3f}≥{t.cosine_floor:g} 且高出背景 {c.margin:.3f}≥{t.cosine_margin:g}")
    return "；".join(reasons)


def coverage(query_terms: dict[str, float], chunk_terms: set[str], groups: dict[str, set[str]]) -> float:
    """Share of the query's IDF mass found in the chunk.

    `query_terms` maps each original query term to its weight (IDF); `groups`
    maps a term to the synonyms that count as finding it (打车 → 出租车, 网约车).
    """
    total = sum(query_terms.values())
    if total <= 0:
        return 0.0
    found = 0.0
    for term, weight in query_terms.items():
        if term in chunk_terms or groups.get(term, set()) & chunk_terms:
            found += weight
    return found / total
