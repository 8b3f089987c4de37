"""Hybrid search: visible-set filter → BM25 + vector → RRF → thresholds.

Chat, the retrieval test page, the CLI and the eval all call `HybridRetriever.search`,
so what a user tests is what chat uses. Filtering by audience and version
happens first, so a hidden document is never scored, shown or cached.
"""

from __future__ import annotations

import time
from datetime import date

from ..documents.catalog import Catalog
from ..settings import Settings
from ..text.tokenizer import expand_query
from ..types import DocumentInfo, Hit, HitScores, SearchResult
from .centroid import CorpusCentroid
from .embedding import Embedder, calibration_for
from .fusion import Candidate, Thresholds, coverage, passed_threshold, ranks, rrf
from .keyword_index import KeywordIndex
from .vector_store import ChromaVectorStore, key_of_chunk
from .visibility import VisibilityCache, Visible

NEAR_MISSES_SHOWN = 3


def thresholds_for(settings: Settings, model_id: str) -> Thresholds:
    cal = calibration_for(model_id)
    return Thresholds(
        bm25=settings.bm25_threshold,
        min_coverage=settings.min_coverage,
        cosine_floor=settings.cosine_floor if settings.cosine_floor is not None else cal.floor,
        cosine_margin=settings.cosine_margin if settings.cosine_margin is not None else cal.margin,
    )


def query_weights(tokens: list[str], visible: Visible, keywords: KeywordIndex) -> dict[str, float]:
    """IDF weight of each query term, for coverage.

    A term the corpus never uses keeps the maximal IDF: a question whose main
    word (年会, 宿舍) is nowhere in the policies cannot reach the coverage bar.
    A lone CJK character the corpus never uses as a word (报, 休) is a jieba
    fragment, not a subject, so it weighs nothing.
    """
    weights: dict[str, float] = {}
    for term in dict.fromkeys(tokens):
        if len(term) == 1 and "\u4e00" <= term <= "\u9fff" and keywords.doc_freq(term, visible) == 0:
            continue
        weights[term] = keywords.idf(term, visible)
    return weights


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


class HybridRetriever:
    def __init__(
        self,
        catalog: Catalog,
        vectors: ChromaVectorStore,
        keywords: KeywordIndex,
        embedder: Embedder,
        centroid: CorpusCentroid,
    ):
        self.catalog = catalog
        self.vectors = vectors
        self.keywords = keywords
        self.embedder = embedder
        self.centroid = centroid
        self.visibility = VisibilityCache(catalog)

    def visible(self, role: str | None = "all", today: date | None = None) -> Visible:
        """What `role` may see today (cached until the catalog changes)."""
        return self.visibility.get(today or date.today(), role)

    def search(
        self,
        query: str,
        settings: Settings,
        *,
        role: str = "all",
        top_k: int | None = None,
        today: date | None = None,
        mode: str = "hybrid",
    ) -> SearchResult:
        """mode: "hybrid" (default), "bm25" or "vector" (the last two for evaluation only)."""
        t0 = time.perf_counter()
        top_k = top_k or settings.top_k
        thresholds = thresholds_for(settings, self.embedder.model_id)
        result, candidates, active = self.candidates(query, settings, role=role, today=today, mode=mode)
        t = time.perf_counter()
        passed = [(c, passed_threshold(c, thresholds)) for c in candidates]
        chosen = [(c, why) for c, why in passed if why][:top_k]
        missed = [(c, "") for c, why in passed if not why][:NEAR_MISSES_SHOWN]
        chunks = self.catalog.chunks_by_id([c.chunk_id for c, _ in chosen + missed])
        result.hits = [
            self._hit(chunks[c.chunk_id], c, why, rank)
            for rank, (c, why) in enumerate(chosen, start=1)
            if c.chunk_id in chunks
        ]
        result.near_misses = [self._hit(chunks[c.chunk_id], c, "", None) for c, _ in missed if c.chunk_id in chunks]
        for d in active:
            if 0 < d.chunk_count <= top_k:
                result.warnings.append(
                    f"《{d.title}》只切出 {d.chunk_count} 块，不多于 top_k={top_k}，检索对它几乎等于全文返回"
                )
        result.timings_ms["threshold_ms"] = _ms(t)
        result.timings_ms["total_ms"] = _ms(t0)
        return result

    def candidates(
        self, query: str, settings: Settings, *, role: str = "all", today: date | None = None, mode: str = "hybrid"
    ) -> tuple[SearchResult, list[Candidate], list[DocumentInfo]]:
        """Every fused candidate with all its numbers, before thresholds (also used by calibration)."""
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        self.keywords.sync()
        visible = self.visible(role, today)
        active = list(visible.active)
        view = self.keywords.view(visible)
        timings["filter_ms"] = _ms(t0)
        result = SearchResult(query=query, hits=[], timings_ms=timings)
        if not visible.keys or view.n_docs == 0 or not query.strip():
            return result, [], active

        t = time.perf_counter()
        tokens, added, groups = expand_query(query)
        result.expanded_terms = added
        bm25 = self.keywords.score(tokens + added, visible) if mode != "vector" else {}
        weights = query_weights(tokens, visible, self.keywords)
        timings["bm25_ms"] = _ms(t)

        cos: dict[str, float] = {}
        background = 0.0
        if mode != "bm25":
            t = time.perf_counter()
            qvec = self.embedder.embed_query(query)
            timings["embed_ms"] = _ms(t)
            t = time.perf_counter()
            for m in self.vectors.query(qvec, settings.candidates, visible.scope):
                # only versions visible in this snapshot, and only committed chunks (a version still
                # being written is in Chroma but not yet indexed): the partitions are not the only guard
                if key_of_chunk(m.chunk_id) in visible.keys and self.keywords.has(m.chunk_id):
                    cos[m.chunk_id] = m.cosine
            center = self.centroid.vector
            if center is not None:
                background = float(qvec @ center)
            timings["vector_ms"] = _ms(t)

        t = time.perf_counter()
        bm25_order = ranks(bm25, settings.candidates)
        cos_order = ranks(cos)
        fused = rrf([bm25_order, cos_order], k=settings.rrf_k)
        bm25_rank = {cid: i for i, cid in enumerate(bm25_order, start=1)}
        cos_rank = {cid: i for i, cid in enumerate(cos_order, start=1)}
        candidates: list[Candidate] = []
        for cid in ranks(fused):
            c = Candidate(chunk_id=cid, fused=fused[cid])
            if cid in bm25:
                c.bm25 = bm25[cid]
                c.bm25_rank = bm25_rank.get(cid)
                c.coverage = coverage(weights, set(self.keywords.tokens_of(cid)), groups)
            if cid in cos:
                c.cosine = cos[cid]
                c.cosine_rank = cos_rank[cid]
                c.margin = cos[cid] - background
            candidates.append(c)
        timings["fusion_ms"] = _ms(t)
        return result, candidates, active

    @staticmethod
    def _hit(chunk, c: Candidate, why: str, rank: int | None) -> Hit:
        return Hit(
            chunk=chunk,
            scores=HitScores(
                bm25=round(c.bm25, 4),
                bm25_rank=c.bm25_rank,
                cosine=None if c.cosine is None else round(c.cosine, 4),
                cosine_rank=c.cosine_rank,
                fused=round(c.fused, 5),
                fused_rank=rank,
                passed=why,
                coverage=round(c.coverage, 3),
                margin=None if c.margin is None else round(c.margin, 4),
            ),
        )
