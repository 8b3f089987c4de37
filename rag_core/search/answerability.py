"""One answerability decision: does the policy answer the question, and which chunks are the evidence?

Every signal search has — how far the chunk's cosine and its best sentence's
cosine stand above the question's background (in spreads), BM25 and its rank,
how much of the question's keyword weight the chunk covers (colloquial words
counted through the thesaurus), the gap to the best candidate, and whether
question words the policies use elsewhere, or situations and benefits the
question names, are missing from the chunk — goes into a logistic model per
chunk. Its probability orders the candidates (a learned fusion). A second
logistic model reads the pool as a whole (best evidence, and how much of the
question is in words the policies never use) and decides whether the question
is answered at all: below its threshold the search returns zero hits, above it
every chunk over the chunk threshold is a hit, 依据充分 or 依据较弱.

The weights are fitted by `bench/fit_answerability.py` across corpora (every
number is reported on a corpus it was not fitted on; docs/retrieval.md) and
shipped in `resources/answerability.json`. Pure functions: no IO but loading
that file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from ..text.tokenizer import is_word
from ..text.vocabulary import names, narrows_scope
from ..types import STRONG_EVIDENCE, WEAK_EVIDENCE


@dataclass
class Signals:
    """What search knows about one candidate chunk for one question."""

    bm25: float = 0.0
    bm25_rank: int | None = None  # 1-based among chunks with a BM25 score
    coverage: float = 0.0  # share of the question's IDF mass found (thesaurus included)
    cosine: float | None = None
    cosine_rank: int | None = None
    sentence_cosine: float | None = None  # best single sentence (small-to-big); the chunk's own when it has one
    sentence_rank: int | None = None
    background: float = 0.0  # the question's mean cosine to the visible corpus
    spread: float = 0.05  # standard deviation of that cosine over the corpus
    missing_known: float = 0.0  # IDF share of question words the corpus uses elsewhere but this chunk lacks
    missing_benefit: bool = False  # a situation or benefit of the question (加班, 婚假 …) is absent from the chunk
    names_every_word: bool = False  # the chunk names each question word, itself or by a thesaurus phrase (`holds_every_word`)
    idf_mass: float = 0.0  # the question's summed keyword IDF (what a chunk holding every word once would score, roughly)
    # the second model's cosines (chunk, best sentence); None when it is off or has no row for the chunk
    second_cosine: float | None = None
    second_sentence_cosine: float | None = None
    # its highest cosine to the chunk or a sentence, the question also read with the thesaurus's policy wording
    second_best: float | None = None


@dataclass(frozen=True)
class Logistic:
    """A fitted logistic model over named features (standardised with the fit's mean and scale)."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    bias: float

    def probability(self, values: Mapping[str, float]) -> float:
        z = self.bias + sum(
            w * (values[name] - m) / s
            for name, w, m, s in zip(self.features, self.weights, self.mean, self.scale, strict=True)
            if not math.isnan(values[name])  # unknown (the second model is off): the fit's mean, i.e. neutral
        )
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    @classmethod
    def from_dict(cls, raw: Mapping) -> Logistic:
        return cls(
            tuple(raw["features"]), tuple(raw["weights"]), tuple(raw["mean"]), tuple(raw["scale"]), float(raw["bias"])
        )

    def to_dict(self) -> dict:
        return {"features": list(self.features), "weights": list(self.weights), "mean": list(self.mean),
                "scale": list(self.scale), "bias": self.bias}


@dataclass(frozen=True)
class Model:
    """Two fitted steps: is the question answered at all, and which chunks are its evidence.

    A question below `question_threshold` gets zero hits; otherwise every
    candidate at or above `chunk_threshold` is a hit, 依据充分 when the question
    probability reaches `strong` and the chunk's reaches one half (one fifth when it
    holds every question word: `_sure`).
    """

    chunk: Logistic
    question: Logistic
    question_threshold: float
    chunk_threshold: float
    strong: float
    fitted_on: tuple[str, ...] = ()
    notes: str = ""
    small_store: int = 0  # below this many visible chunks, `small_question_threshold` applies
    small_question_threshold: float | None = None

    @property
    def threshold(self) -> float:
        """The number a person tunes: the question-level threshold."""
        return self.question_threshold

    def question_threshold_for(self, store_chunks: int | None) -> float:
        """A store of a dozen chunks has low IDF and a wide spread: its questions get the small-store threshold."""
        if store_chunks is not None and store_chunks < self.small_store and self.small_question_threshold is not None:
            return self.small_question_threshold
        return self.question_threshold

    def to_dict(self) -> dict:
        return {"chunk": self.chunk.to_dict(), "question": self.question.to_dict(),
                "question_threshold": self.question_threshold, "chunk_threshold": self.chunk_threshold,
                "strong": self.strong, "fitted_on": list(self.fitted_on), "notes": self.notes,
                "small_store": self.small_store, "small_question_threshold": self.small_question_threshold}

    @classmethod
    def from_dict(cls, raw: Mapping) -> Model:
        return cls(
            chunk=Logistic.from_dict(raw["chunk"]), question=Logistic.from_dict(raw["question"]),
            question_threshold=float(raw["question_threshold"]), chunk_threshold=float(raw["chunk_threshold"]),
            strong=float(raw["strong"]), fitted_on=tuple(raw.get("fitted_on", ())), notes=raw.get("notes", ""),
            small_store=int(raw.get("small_store", 0)), small_question_threshold=raw.get("small_question_threshold"),
        )


@dataclass
class Judgement:
    probability: float  # this chunk is evidence that answers the question
    question_probability: float  # the policies answer the question at all
    verdict: str  # STRONG_EVIDENCE | WEAK_EVIDENCE | "" (near miss)
    values: dict[str, float] = field(default_factory=dict)


def _inverse_rank(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


def _zs(s: Signals) -> tuple[float, float]:
    spread = max(s.spread, 1e-3)
    cos = s.cosine if s.cosine is not None else s.background
    sentence = s.sentence_cosine if s.sentence_cosine is not None else cos
    return (cos - s.background) / spread, (sentence - s.background) / spread


def pool_z(values: list[float | None]) -> list[float]:
    """Each value as a z-score within the question's candidate pool (0 where it is missing).

    The second model's cosines live on its own scale; within one pool they only say which
    candidates it prefers, so no corpus statistics are needed and a missing model reads as neutral.
    """
    known = [v for v in values if v is not None]
    if len(known) < 2:
        return [0.0] * len(values)
    mean = sum(known) / len(known)
    std = math.sqrt(sum((v - mean) ** 2 for v in known) / len(known))
    return [0.0 if v is None else (v - mean) / (std + 1e-6) for v in values]


def chunk_features(signals: list[Signals]) -> list[dict[str, float]]:
    """Every named chunk-level feature, for each candidate of one question's pool."""
    if not signals:
        return []
    zs = [_zs(s) for s in signals]
    second_z = pool_z([s.second_cosine for s in signals])
    second_sentence_z = pool_z([
        s.second_sentence_cosine if s.second_sentence_cosine is not None else s.second_cosine for s in signals
    ])
    best_z, best_sentence_z = max(z for z, _ in zs), max(sz for _, sz in zs)
    max_bm25 = max(s.bm25 for s in signals)
    out = []
    for s, (z, sentence_z), z2, sz2 in zip(signals, zs, second_z, second_sentence_z, strict=True):
        out.append({
            "second_z": z2,
            "second_sentence_z": sz2,
            "z": z,
            "sentence_z": sentence_z,
            "z_gap": best_z - z,
            "sentence_z_gap": best_sentence_z - sentence_z,
            "log_bm25": math.log1p(s.bm25),
            "bm25_norm": s.bm25 / s.idf_mass if s.idf_mass > 0 else 0.0,
            "bm25_share": s.bm25 / max_bm25 if max_bm25 > 0 else 0.0,
            "coverage": s.coverage,
            "inv_bm25_rank": _inverse_rank(s.bm25_rank) if s.bm25 > 0 else 0.0,
            "inv_cosine_rank": _inverse_rank(s.cosine_rank),
            "inv_sentence_rank": _inverse_rank(s.sentence_rank),
            "missing_known": s.missing_known,
            "missing_benefit": 1.0 if s.missing_benefit else 0.0,
            "names_every_word": 1.0 if s.names_every_word else 0.0,
            "second_best": math.nan if s.second_best is None else s.second_best,
        })
    return out


def question_features(features: list[dict[str, float]], probabilities: list[float], unknown_share: float) -> dict[str, float]:
    """Question-level features of a pool: how good its best evidence is, and how foreign the question's words are."""
    order = sorted(range(len(probabilities)), key=lambda i: -probabilities[i])
    top = features[order[0]]
    best = min(max(probabilities[order[0]], 1e-6), 1 - 1e-6)
    return {
        "best_logit": math.log(best / (1 - best)),
        "second": probabilities[order[1]] if len(order) > 1 else 0.0,
        "best_sentence_z": max(f["sentence_z"] for f in features),
        "best_coverage": max(f["coverage"] for f in features),
        "best_log_bm25": max(f["log_bm25"] for f in features),
        "best_bm25_norm": max(f["bm25_norm"] for f in features),
        "unknown_share": unknown_share,
        "top_missing_known": top["missing_known"],
        "top_missing_benefit": top["missing_benefit"],
        # the second model's raw cosine: one scale across stores, unlike e5's, so it says "nothing here
        # is about this" where e5's 0.83–0.92 for any two HR texts cannot
        "best_second": max((f["second_best"] for f in features if not math.isnan(f["second_best"])), default=math.nan),
    }


def judge_all(
    signals: list[Signals], model: Model, unknown: float = 0.0, store_chunks: int | None = None
) -> list[Judgement]:
    """Probabilities and verdicts for the pool of candidates of one question (`store_chunks`: visible chunks)."""
    if not signals:
        return []
    features = chunk_features(signals)
    probabilities = [model.chunk.probability(f) for f in features]
    question = model.question.probability(question_features(features, probabilities, unknown))
    answered = question >= model.question_threshold_for(store_chunks) or _plainly_answered(features, model, store_chunks)
    out = []
    for f, p in zip(features, probabilities, strict=True):
        verdict = ""
        if answered and p >= model.chunk_threshold:
            verdict = STRONG_EVIDENCE if question >= model.strong and _sure(f, p) else WEAK_EVIDENCE
        out.append(Judgement(p, question, verdict, {k: f[k] for k in model.chunk.features}))
    return out


# A chunk is 依据充分 evidence (for a question read as answered, `Model.strong`) from this probability on, or from
# SURE_COVERED when it names every word of the question (itself or by a thesaurus phrase: `holds_every_word`, not
# the coverage feature, whose thesaurus groups let a compound entry's one word stand for the other) and misses no
# benefit word. The lower floor was set at 0.2 before measuring, not swept (stop 44): right answers without
# 依据较弱 open 0.49 -> 0.51, fresh 0.42 -> 0.45; of the answers it unhedges, right 3 of 3 (fresh), 8 of 9 (question
# sets), 4 of 8 (open); traps answered confidently unchanged on all three. A near-keyword trap misses a word.
SURE_CHUNK = 0.5
SURE_COVERED = 0.2


def _sure(features: dict[str, float], probability: float) -> bool:
    """Is this chunk sure evidence (依据充分), given that the question reads as answered with confidence?"""
    if probability >= SURE_CHUNK:
        return True
    return bool(features["names_every_word"]) and not features["missing_benefit"] and probability >= SURE_COVERED


def _plainly_answered(features: list[dict[str, float]], model: Model, store_chunks: int | None) -> bool:
    """In a small store, a chunk that holds every word of the question and is first by keywords and by
    meaning answers it, whatever the corpus statistics (low IDF, wide spread) make of the numbers."""
    if store_chunks is None or store_chunks >= model.small_store:
        return False
    return any(
        f["coverage"] >= 0.999 and f["inv_bm25_rank"] == 1.0 and f["inv_cosine_rank"] == 1.0 and not f["missing_benefit"]
        for f in features
    )


def missing_terms(
    question_terms: Iterable[str], chunk_text: str, phrases: Mapping[str, Iterable[str]], doc_freq: Mapping[str, int],
    named: Sequence[str] | None = None,
) -> tuple[list[str], list[str]]:
    """(question words absent from the chunk that the corpus uses elsewhere, scope words absent from it).

    A word counts as present when it or one of its thesaurus phrases occurs in the
    chunk (title and section included). Only words of two or more characters count.
    Scope words are situations, people and benefits (`text.vocabulary`). A piece of a longer
    question word is not missing when it overlaps a named piece of that word: jieba also cuts 打车费
    into 打车 and 车费, and a clause on 出租车 names 打车 and 打车费. 住房 in 住房补贴 stays missing
    when only 补贴 is named (a clause on 高温津贴 is not about housing).
    """
    terms = [t for t in dict.fromkeys(question_terms) if len(t) >= 2]
    if named is None:  # search passes the words it already found named (`names` for every term and chunk)
        named = [t for t in terms if names(t, chunk_text, phrases)]
    known_missing, scope_missing = [], []
    for term in _unnamed(terms, named):
        used = doc_freq.get(term, 0) > 0
        if used:
            known_missing.append(term)
        # a piece a search cut that no dictionary lists and no policy uses (能补, 要交票) is missing from every
        # clause alike: it names no benefit, though it ends like one
        if narrows_scope(term) and (used or is_word(term)):
            scope_missing.append(term)
    return known_missing, scope_missing


def holds_every_word(question_terms: Iterable[str], named: Sequence[str]) -> bool:
    """The chunk names each question word of two or more characters (`named`: those `names` found in it), a piece
    of a longer named word counting as its word does in `missing_terms`; False for a question with no such word."""
    terms = [t for t in dict.fromkeys(question_terms) if len(t) >= 2]
    return bool(terms) and not _unnamed(terms, named)


def _unnamed(terms: list[str], named: Sequence[str]) -> list[str]:
    """The terms the chunk does not name: neither found (`named`) nor a piece of a longer named word."""
    named = list(named)
    return [t for t in terms if t not in named and not _overlaps_a_named_piece(t, named)]


def _overlaps_a_named_piece(term: str, named: list[str]) -> bool:
    """`term` sits inside a named longer word and shares characters there with another named piece of it."""
    for longer in named:
        start = longer.find(term)
        if len(longer) <= len(term) or start < 0:
            continue
        end = start + len(term)
        for piece in named:
            at = longer.find(piece)
            if piece != longer and at >= 0 and at < end and start < at + len(piece):
                return True
    return False


def missing_share(missing: Iterable[str], terms: Iterable[str], idf: Mapping[str, float]) -> float:
    """IDF-weighted share of `terms` (those the corpus knows) that are missing."""
    known = [t for t in dict.fromkeys(terms) if idf.get(t, 0.0) > 0]
    total = sum(idf[t] for t in known)
    return sum(idf.get(t, 0.0) for t in set(missing)) / total if total > 0 else 0.0


def unknown_terms(terms: Iterable[str], doc_freq: Mapping[str, int], expansion_tokens: Mapping[str, Iterable[str]]) -> list[str]:
    """Question words (two or more characters) the visible corpus never uses, not even through the thesaurus."""
    return [
        t for t in dict.fromkeys(terms)
        if len(t) >= 2 and doc_freq.get(t, 0) == 0 and not any(doc_freq.get(x, 0) for x in expansion_tokens.get(t, ()))
    ]


def share_of_unknown(unknown: Iterable[str], terms: Iterable[str], idf: Mapping[str, float]) -> float:
    """IDF share of the question's words (two or more characters) that `unknown_terms` found (班车, 团建 …)."""
    total = sum(idf.get(t, 0.0) for t in dict.fromkeys(terms) if len(t) >= 2)
    return sum(idf.get(t, 0.0) for t in unknown) / total if total > 0 else 0.0


@lru_cache(maxsize=4)
def shipped_model(name: str = "answerability.json") -> Model:
    """The model fitted across corpora and shipped with the engine."""
    raw = json.loads(resources.files("rag_core.search.resources").joinpath(name).read_text(encoding="utf-8"))
    return Model.from_dict(raw)


def speaks_of(chunk_text: str, noun: str) -> bool:
    """Every character of `noun` occurs in the chunk: it may say the same thing in its own words
    (买房 in 购买住房, 失业金 in 失业保险金); 舅舅 in a 丧假 clause on 父母、配偶、子女 does not."""
    text = chunk_text.casefold()
    return all(ch in text for ch in noun)
