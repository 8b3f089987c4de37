"""Hybrid search: visible set → BM25 (+ thesaurus) ‖ vectors (chunk and best sentence) → one decision.

Chat, the retrieval test page, the CLI and the eval all call `HybridRetriever.search`,
so what a user tests is what chat uses. Filtering by audience and version
happens first, so a hidden document is never scored, shown or cached.

The candidates are the union of BM25's and the vector store's best chunks. For
each, every signal is gathered (`answerability.Signals`) and one fitted
logistic model turns them into a probability: that orders the candidates
(a learned fusion, so a weak side cannot drag a strong one down the way equal
RRF did) and decides hit or near miss.
"""

from __future__ import annotations

import re
import threading
import time
from datetime import date

import numpy as np

from ..documents.catalog import Catalog, Readable, office_day, readable_set, visible_to
from ..documents.prepare import index_text
from ..errors import VectorServerDown
from ..settings import Settings
from ..text.pii import PLACEHOLDERS
from ..text.thesaurus import Thesaurus, with_policy_wording
from ..text.tokenizer import dictionary_nouns, foreign_nouns, is_word, tagged
from ..text.vocabulary import is_benefit, names, subjects_named
from ..types import STRONG_EVIDENCE, WEAK_EVIDENCE, Chunk, Hit, HitScores, SearchResult
from .answerability import (
    Judgement,
    Model,
    Signals,
    holds_every_word,
    judge_all,
    missing_share,
    missing_terms,
    share_of_unknown,
    shipped_model,
    speaks_of,
    unknown_terms,
)
from .bm25 import TopScores
from .centroid import CorpusCentroid
from .chroma_server import KEYWORDS_ONLY
from .embedding import Embedder
from .explain import why_matched
from .fusion import Candidate, coverage, ranks
from .keyword_index import KeywordIndex
from .row_cache import GenerationCache, row_cosines
from .sentence_index import SecondModel, SentenceIndex
from .vector_store import ChromaVectorStore, key_of_chunk
from .visibility import VisibilityCache, Visible

NEAR_MISSES_SHOWN = 3
# Head nouns that, like benefit words, name what a question is about through their modifier (年会预算, 团建经费).
SUBJECT_HEADS = frozenset("预算 经费 福利 礼品 礼物 活动".split())
# How much or how many, not which kind: 一笔押金 and 好多天事假 name no benefit of their own.
_AMOUNT_WORD = re.compile(r"[0-9零一二两三四五六七八九十百千万几好多这那每某半整]+[天日周月年笔个次份项块元回些点]?")


def decision_model(settings: Settings) -> Model:
    """The shipped model with the settings' threshold (if set) in force."""
    model = shipped_model()
    if settings.answer_threshold is None:
        return model
    from dataclasses import replace

    threshold = settings.answer_threshold
    # a threshold a person set applies to every store, small ones included
    return replace(model, question_threshold=threshold, small_store=0, small_question_threshold=None,
                   strong=max(model.strong, threshold))


def query_weights(tokens: list[str], visible: Visible, keywords: KeywordIndex) -> dict[str, float]:
    """IDF weight of each query term, for coverage.

    A term the corpus never uses keeps the maximal IDF: a question whose main
    word (年会, 宿舍) is nowhere in the policies cannot reach a high coverage.
    A lone CJK character the corpus never uses as a word (报, 休) is a jieba
    fragment, not a subject, so it weighs nothing.
    """
    weights: dict[str, float] = {}
    for term in dict.fromkeys(tokens):
        if len(term) == 1 and "\u4e00" <= term <= "\u9fff" and keywords.doc_freq(term, visible) == 0:
            continue
        weights[term] = keywords.idf(term, visible)
    return weights


def foreign_benefits(
    query: str, tokens: list[str], doc_freq: dict[str, int], groups: dict[str, set[str]]
) -> list[str]:
    """Subjects the question names with a word the policies never use (独角兽津贴, 年会预算, 宠物假).

    The head word alone (津贴, 预算, 假) is common in HR policies, so without this
    rule such a question is answered from some other allowance or budget. A
    modifier the thesaurus maps to policy wording (打车 → 出租车) is not foreign. Nor is a piece the search
    tokenizer cut across two words that the part-of-speech reading keeps apart (发啥 of 发/啥福利, 天请 of
    10天/请病假): it names no kind of benefit, so a question asked in plain words is not refused for it. So is a modal
    and a verb (要交押金 asks whether a deposit is due; the reading has 要/交). Nor is a verb before a head used as a
    verb (出去活动 says what is done, not which activity; 年会活动 and 健身补贴 name one).
    """

    def foreign(word: str) -> bool:
        return doc_freq.get(word, 0) == 0 and not any(doc_freq.get(t, 0) for t in groups.get(word, ()))

    found = []
    words: dict[str, str] | None = None  # the part-of-speech reading's words and tags, read once and only when needed
    for first, second in zip(tokens, tokens[1:], strict=False):
        if len(first) < 2 or first + second not in query or not foreign(first) or _AMOUNT_WORD.fullmatch(first):
            continue
        words = words if words is not None else {word: tag for word, tag in tagged(query)}
        if first not in words and not any(first + second in word for word in words):  # cut across two words
            continue
        if words.get(first) == "v" and second in SUBJECT_HEADS and words.get(second, "v").startswith("v"):
            continue  # 出去/v 活动/vn: what is done; 健身补贴 and 年会活动 still name a kind of benefit or activity
        if (is_benefit(second) and is_word(second)) or second in SUBJECT_HEADS:  # not a cut piece (能补)
            found.append(first + second)
    return found


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
        sentences: SentenceIndex,
        thesaurus: Thesaurus,
        second: SecondModel | None = None,
    ):
        self.second = second
        self.catalog = catalog
        self.vectors = vectors
        self.keywords = keywords
        self.embedder = embedder
        self.centroid = centroid
        self.sentences = sentences
        self.thesaurus = thesaurus
        self.visibility = VisibilityCache(catalog)
        # the candidates' rows, kept between questions until the catalog changes (`row_cache`)
        self._chunk_rows = GenerationCache(catalog.chunks_by_id, catalog.generation)
        self._sentence_rows = GenerationCache(sentences.stacked, catalog.generation)
        self._second_rows = GenerationCache(lambda ids: second.index.stacked(ids) if second else {}, catalog.generation)
        self._mentions: dict[tuple[str, ...], set[tuple[str, int]]] = {}
        self._mentions_generation = -1
        self._mentions_lock = threading.Lock()

    def visible(self, reader: str | Readable = "all", today: date | None = None, timezone: str | None = None) -> Visible:
        """What `reader` (audience labels, or one label besides "all"; None: everything) may see today.

        Today is the office's (`timezone`, `Settings.timezone`), not the server's: a version dated today is in effect
        from the office's midnight."""
        return self.visibility.get(today or office_day(timezone), reader)

    def search(
        self,
        query: str,
        settings: Settings,
        *,
        reader: str | Readable = "all",
        top_k: int | None = None,
        today: date | None = None,
        mode: str = "hybrid",
    ) -> SearchResult:
        """mode: "hybrid" (default), "bm25" or "vector" (the last two for evaluation only)."""
        t0 = time.perf_counter()
        top_k = top_k or settings.top_k
        model = decision_model(settings)
        result, candidates, visible, chunks = self.candidates(query, settings, reader=reader, today=today, mode=mode)
        t = time.perf_counter()
        judgements = judge_all([c.signals for c in candidates], model, result.unknown_share, result.store_chunks)
        if result.foreign_subjects:  # the question names a benefit the policies never mention at all
            for judgement in judgements:
                judgement.verdict = ""
            named = "、".join(f"「{x}」" for x in result.foreign_subjects)
            result.warnings.append(f"问题问的是{named}，制度里从未出现这种说法，所以不采用任何条款")
        nouns = dictionary_nouns(query) if result.unknown_words else []
        used = [n for n in nouns if self.keywords.doc_freq(n.casefold(), visible) > 0]
        strange = foreign_nouns(nouns, result.unknown_words, used)
        if strange and not result.foreign_subjects:  # a thing the policies never name: no clause is sure about it
            hedged = False
            for c, judgement in zip(candidates, judgements, strict=True):
                if judgement.verdict == STRONG_EVIDENCE and not all(speaks_of(index_text(chunks[c.chunk_id]), n) for n in strange):
                    judgement.verdict, hedged = WEAK_EVIDENCE, True
            if hedged:
                named = "、".join(f"「{x}」" for x in strange)
                result.warnings.append(f"问题里的{named}在制度里没有出现，找到的条款不一定说到它，所以只算依据较弱")
        judged = sorted(zip(candidates, judgements, strict=True), key=lambda pair: (-pair[1].probability, pair[0].chunk_id))
        chosen = [pair for pair in judged if pair[1].verdict][:top_k]
        missed = [pair for pair in judged if not pair[1].verdict][:NEAR_MISSES_SHOWN]
        result.answerable = judgements[0].question_probability if judgements else 0.0
        result.hits = [self._hit(chunks[c.chunk_id], c, j, rank, model) for rank, (c, j) in enumerate(chosen, 1)]
        result.near_misses = [self._hit(chunks[c.chunk_id], c, j, None, model) for c, j in missed]
        result.threshold = model.question_threshold_for(result.store_chunks)
        shown = {h.chunk.doc_id for h in (*result.hits, *result.near_misses)}  # not every short one (review 376 #3)
        for d in (d for d in visible.short_documents(top_k) if d.doc_id in shown):
            result.warnings.append(f"《{d.title}》只有 {d.chunk_count} 段，检索时几乎总是整篇返回；文档较短时这是正常的")
        result.timings_ms["decision_ms"] = _ms(t)
        result.timings_ms["total_ms"] = _ms(t0)
        return result

    def absent_subjects(self, query: str, visible: Visible) -> list[str]:
        """Standalone topics the question names (班车, 健身房, 年会) that no visible policy mentions by any name.

        Such a question is about something the policies do not cover; without this
        rule 公司有上下班班车吗 is matched to 上下班打卡 by its other words.
        """
        shown = visible.versions()
        return [used for used, group in subjects_named(query) if not shown & self._versions_mentioning(group)]

    def _versions_mentioning(self, group: tuple[str, ...]) -> set[tuple[str, int]]:
        """The catalog's scan for one topic, kept until the catalog changes (45 ms uncached at 10k chunks).

        A scan that overlapped a change is used but not kept (another thread may have committed an
        upload meanwhile), as in `VisibilityCache`.
        """
        generation = self.catalog.generation()
        with self._mentions_lock:
            if self._mentions_generation == generation and group in self._mentions:
                return self._mentions[group]
        found = self.catalog.versions_mentioning(group)
        if self.catalog.generation() == generation:
            with self._mentions_lock:
                if self._mentions_generation != generation:
                    self._mentions, self._mentions_generation = {}, generation
                self._mentions[group] = found
        return found

    def candidates(
        self, query: str, settings: Settings, *, reader: str | Readable = "all", today: date | None = None,
        mode: str = "hybrid",
    ) -> tuple[SearchResult, list[Candidate], Visible, dict[str, Chunk]]:
        """Every candidate with all its signals, before the decision (also used to fit the model), with what the
        reader may see."""
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        generation = self.catalog.generation()  # read before the rows kept for it (`row_cache`)
        self.keywords.sync()
        readable = readable_set(reader)
        visible = self.visible(readable, today or office_day(settings.timezone))  # the office's day, not the server's
        view = self.keywords.view(visible)
        timings["filter_ms"] = _ms(t0)
        result = SearchResult(query=query, hits=[], timings_ms=timings, store_chunks=view.n_docs)
        if not visible.keys or view.n_docs == 0 or not query.strip():
            return result, [], visible, {}

        t = time.perf_counter()
        expansion = self.thesaurus.expand(query)
        result.expanded_terms = expansion.added
        result.thesaurus = [f"{head} → {' '.join(terms)}" for head, terms in expansion.applied]
        result.synonym_groups = {k: sorted(v) for k, v in expansion.phrases.items()}
        searched = expansion.tokens + expansion.added
        bm25 = self.keywords.top(searched, visible, settings.candidates) if mode != "vector" else TopScores()
        weights = query_weights(expansion.tokens, visible, self.keywords)
        bm25_order = bm25.order
        timings["bm25_ms"] = _ms(t)

        cos: dict[str, float] = {}
        qvec = None
        background = 0.0
        if mode != "bm25":
            t = time.perf_counter()
            qvec = self.embedder.embed_query(query)
            timings["embed_ms"] = _ms(t)
            t = time.perf_counter()
            try:
                matches = self.vectors.query(qvec, settings.candidates, visible.scope)
            except VectorServerDown as down:  # the keyword candidates keep their cosines (the sentence index is local)
                matches = []
                result.warnings.append(getattr(down, "warning", KEYWORDS_ONLY))  # down, or back without its vectors
            for m in matches:
                # only versions visible in this snapshot, and only committed chunks (a version still
                # being written is in Chroma but not yet indexed): the partitions are not the only guard
                if key_of_chunk(m.chunk_id) in visible.keys and self.keywords.has(m.chunk_id):
                    cos[m.chunk_id] = m.cosine
            background = self.centroid.background(qvec, readable)  # over what this reader may see only
            timings["vector_ms"] = _ms(t)

        t = time.perf_counter()
        pool = list(dict.fromkeys([*bm25_order, *ranks(cos)]))
        chunks = self._chunk_rows.get(pool, generation)
        # rows are read after the snapshot: a row another write changed meanwhile is shown only to its audience
        pool = [cid for cid in pool if cid in chunks and visible_to(chunks[cid].audience, readable)]
        sentence_cos: dict[str, float] = {}
        if qvec is not None and pool:
            rows = row_cosines(self._sentence_rows.get(pool, generation), np.asarray(qvec, dtype=np.float32)[:, None])
            for cid, (chunk_cos, best_sentence) in rows.items():
                cos.setdefault(cid, float(chunk_cos[0]))
                sentence_cos[cid] = float(best_sentence[0])
        reworded = with_policy_wording(query, expansion)
        second_cos, second_sentence_cos, second_best = (
            self._second_cosines(query, pool, reworded, generation) if qvec is not None else ({}, {}, {})
        )
        result.second_best = max(second_best.values(), default=None)
        result.second_reading = reworded if second_best and reworded != query else ""
        timings["sentence_ms"] = _ms(t)

        t = time.perf_counter()
        bm25_rank = {cid: i for i, cid in enumerate(bm25_order, start=1)}
        cos_rank = {cid: i for i, cid in enumerate(ranks({c: cos[c] for c in pool if c in cos}), start=1)}
        sentence_rank = {cid: i for i, cid in enumerate(ranks({c: sentence_cos[c] for c in pool if c in sentence_cos}), 1)}
        terms = [w for w in expansion.tokens if len(w) >= 2]
        doc_freq = {w: self.keywords.doc_freq(w, visible) for w in {*expansion.tokens, *expansion.added}}
        result.unknown_words = unknown_terms(terms, doc_freq, expansion.groups)
        result.unknown_share = share_of_unknown(result.unknown_words, terms, weights)
        result.foreign_subjects = foreign_benefits(query, expansion.tokens, doc_freq, expansion.groups)
        result.foreign_subjects += [
            w for w in self.absent_subjects(query, visible) if not any(w in named for named in result.foreign_subjects)
        ]
        spread = self.centroid.spread(qvec, readable=readable) if qvec is not None else 0.05
        idf_mass = sum(weights.values())
        candidates: list[Candidate] = []
        for cid in pool:
            chunk_text = PLACEHOLDERS.sub(" ", index_text(chunks[cid]))  # [手机号] names no 手机号 (review 376 #1)
            chunk_tokens = set(self.keywords.tokens_of(cid))
            matched = [w for w in terms if names(w, chunk_text, expansion.phrases)]
            known_missing, benefit_missing = missing_terms(terms, chunk_text, expansion.phrases, doc_freq, matched)
            signals = Signals(
                bm25=bm25.get(cid, 0.0),
                bm25_rank=bm25_rank.get(cid),
                coverage=coverage(weights, chunk_tokens, expansion.groups),
                cosine=cos.get(cid),
                cosine_rank=cos_rank.get(cid),
                sentence_cosine=sentence_cos.get(cid),
                sentence_rank=sentence_rank.get(cid),
                background=background,
                spread=spread,
                missing_known=missing_share(known_missing, terms, {w: weights.get(w, 0.0) for w in terms if doc_freq[w]}),
                missing_benefit=bool(benefit_missing),
                names_every_word=holds_every_word(terms, matched),
                idf_mass=idf_mass,
                second_cosine=second_cos.get(cid),
                second_sentence_cosine=second_sentence_cos.get(cid),
                second_best=second_best.get(cid),
            )
            candidates.append(
                Candidate(chunk_id=cid, signals=signals, missing=known_missing + benefit_missing, matched=matched)
            )
        timings["signals_ms"] = _ms(t)
        return result, candidates, visible, chunks

    def _second_cosines(
        self, query: str, pool: list[str], reworded: str, generation: int
    ) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
        """The second model's cosine of the question to each candidate and to its best sentence (ranking),
        and its best cosine with the question also read in the thesaurus's policy wording (the decision).

        Computed in line: handing the question to a thread of its own while BM25 runs was tried (issue 31);
        at load 9 on two cores searches then took 10-15 ms longer at p50, waiting for that thread to be scheduled."""
        if self.second is None or not pool:
            return {}, {}, {}
        qvecs = self.second.embedder.embed_queries([query] if reworded == query else [query, reworded])
        chunk_cos, sentence_cos, best = {}, {}, {}
        readings = np.stack(qvecs, axis=1)  # (as asked, reworded)
        for cid, (chunk, sentence) in row_cosines(self._second_rows.get(pool, generation), readings).items():
            chunk_cos[cid] = float(chunk[0])
            sentence_cos[cid] = float(sentence[0])
            best[cid] = float(max(chunk.max(), sentence.max()))
        return chunk_cos, sentence_cos, best

    @staticmethod
    def _hit(chunk: Chunk, c: Candidate, judgement: Judgement, rank: int | None, model: Model) -> Hit:
        s = c.signals
        margin = None if s.cosine is None else s.cosine - s.background
        return Hit(
            chunk=chunk,
            scores=HitScores(
                bm25=round(s.bm25, 4),
                bm25_rank=s.bm25_rank,
                cosine=None if s.cosine is None else round(s.cosine, 4),
                cosine_rank=s.cosine_rank,
                sentence_cosine=None if s.sentence_cosine is None else round(s.sentence_cosine, 4),
                fused=round(judgement.probability, 4),
                fused_rank=rank,
                probability=round(judgement.probability, 4),
                threshold=model.chunk_threshold,
                answerable=round(judgement.question_probability, 4),
                verdict=judgement.verdict,
                passed=judgement.verdict,
                coverage=round(s.coverage, 3),
                margin=None if margin is None else round(margin, 4),
                missing=list(c.missing),
                why=why_matched(s, c.matched, c.missing, judgement),
                features={k: round(v, 4) for k, v in judgement.values.items()},
            ),
        )
