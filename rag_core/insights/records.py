"""Plain records the insights stage returns (the facade hands them to pages and the CLI)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import RagError


class InsightError(RagError):
    """Bad input to an insight action (date, reason, export kind); nothing was changed."""


# 👎 reasons a person may give (optional)
FEEDBACK_REASONS: tuple[str, ...] = ("答非所问", "回答不完整", "信息过时", "引用不对", "其他")  # 不完整: stop 58
# what happened to a logged question
OUTCOMES: dict[str, str] = {
    "answered": "已回答",
    "zero_hit": "没有命中",
    "refused": "制度里没有写",
    "weak": "依据较弱",  # answered, but the best clause was only weak evidence: HR should look
    "standard": "标准答复",
    "disliked": "👎 评价",
}
# where a question came from: a person (chat, the CLI), the eval runner, or a retrieval or benchmark test.
# Usage, gaps and feedback count people only unless asked to include the rest (docs/insights.md).
PERSON = "person"
TRAFFIC: tuple[str, ...] = (PERSON, "eval", "test")
QUESTION_KEYS = ("question", "search_question", "query")  # where a reviewed trace holds the question whole
# where it holds the question's words, at any depth: why a clause matched (关键词：怀孕), the words it lacks, the
# thesaurus lines and groups used, unknown words, the rewrite, the second model's reading, the warnings
QUESTION_WORD_KEYS = frozenset({*QUESTION_KEYS, "why", "missing", "thesaurus", "synonym_groups", "expanded_terms",
                                "unknown_words", "foreign_subjects", "second_reading", "warnings", "rewrite"})
GAP_OUTCOMES = ("zero_hit", "refused")  # always on the gap page
WEAK_OUTCOME = "weak"  # on it when asked for: most such answers are right, and they would crowd out the rest


@dataclass
class GapItem:
    """One question that the policies did not answer (or an answer someone rated 👎)."""

    text: str
    when: str  # ISO-8601 UTC
    kind: str  # zero_hit | refused | weak | disliked
    user: str = ""
    nearest: dict[str, Any] = field(default_factory=dict)  # the closest clause found, if any
    feedback_id: int | None = None  # a 👎 row's id (None for an asked question)
    audiences: list[tuple[str, ...]] | None = None  # a 👎 row's: every clause its answer showed (None: older row)


@dataclass
class GapGroup:
    """Questions that mean the same thing, with what HR needs to act on them."""

    representative: str
    count: int
    first_seen: str
    last_seen: str
    questions: list[str]  # distinct wordings, most frequent first
    kinds: dict[str, int]
    nearest: dict[str, Any] = field(default_factory=dict)
    users: list[str] = field(default_factory=list)  # filled only for administrators
    answered_by: dict[str, str] = field(default_factory=dict)  # the standard answer now served for it: id, question

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FeedbackEntry:
    id: int
    created_at: str
    user: str
    question: str
    answer: str
    rating: int
    reason: str
    comment: str
    docs: list[str]
    reviewed_at: str | None = None
    reviewed_by: str | None = None
    trace: dict[str, Any] = field(default_factory=dict)
    # audience labels of every clause the rated answer showed; None for a row stored before they were kept
    audiences: list[tuple[str, ...]] | None = None

    @property
    def unread(self) -> bool:
        return self.reviewed_at is None

    def to_dict(self, with_trace: bool = False) -> dict[str, Any]:
        out = asdict(self)
        out["unread"] = self.unread
        out.pop("audiences")
        if not with_trace:
            out.pop("trace")
        return out


@dataclass
class StandardAnswer:
    id: str
    question: str
    answer: str
    clauses: list[str]
    variants: list[str]
    audience: tuple[str, ...]
    author: str
    created_at: str
    hits: int = 0
    last_hit_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class StandardMatch:
    """A standard answer chosen for a question, with why."""

    entry: StandardAnswer
    wording: str  # the stored wording that matched
    cosine: float
    agreement: float

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {
            "id": e.id, "question": e.question, "author": e.author, "created_at": e.created_at,
            "clauses": list(e.clauses), "matched_wording": self.wording,
            "audience": list(e.audience),  # who it was written for: a rating of it is shown to them only
            "cosine": round(self.cosine, 4), "agreement": round(self.agreement, 3),
        }
