"""The questions and ratings kept for HR's loop: the log, its retention, and what of a turn it keeps.

`ask` logs each question here (`_log_asked`) and `record_feedback` each rating (`_review_feedback`); the gap,
feedback, usage and own-feedback actions read the same log, after `_expire` dropped what is past the retention.
One base class (`QuestionLog`) that those mixins inherit, so none reaches into another for these. Split from
`facade.insights` (kept under the 400-line limit).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from ..answer.answering import is_refusal
from ..conversations.statements import split_turn
from ..documents.redaction import redact_text
from ..errors import StoreDamaged
from ..insights.audiences import revealed
from ..insights.fields import feedback_fields
from ..insights.log import InsightLog
from ..insights.records import GAP_OUTCOMES, PERSON, WEAK_OUTCOME
from ..insights.rows import cited_docs, nearest_clause, policy_answer, told_only, told_something, without_question
from ..types import ANSWERED, REFUSED, STANDARD, WEAK, AskTrace
from .core import FacadeCore
from .stores import INSIGHTS_FILE, feature_store
from .turn_access import context_audiences

_open_lock = threading.Lock()


def _now() -> datetime:
    return datetime.now(UTC)


def stamp(moment: datetime | None = None) -> str:
    return (moment or _now()).isoformat(timespec="seconds")


def outcome_of(trace: AskTrace) -> str:
    """The logged outcome: the trace's own, with a refusal at zero hits told apart (没有命中 on the gap page)."""
    outcome = trace.outcome or _stored_outcome(trace)
    return "zero_hit" if outcome == REFUSED and trace.hit_count == 0 else outcome


def _stored_outcome(trace: AskTrace) -> str:
    """A trace kept before outcomes were: what its fields say."""
    if getattr(trace, "standard_answer", None):
        return STANDARD
    if trace.hit_count == 0 or is_refusal(trace.answer):
        return REFUSED
    return WEAK if trace.weak_evidence else ANSWERED


def keep_days(settings: Any) -> float:
    """How many days a question is kept (the settings page's 问题保留天数; 0: none kept)."""
    return float(getattr(settings, "question_retention_days", 180.0))


class QuestionLog(FacadeCore):
    """Base of the HR loop's mixins and of ratings: the question and rating log, kept as the retention allows."""

    embedder: Any

    @property
    def insight_log(self) -> InsightLog:
        with _open_lock:
            if self.__dict__.get("_insight_log") is None:
                with feature_store(INSIGHTS_FILE):
                    self.__dict__["_insight_log"] = InsightLog(self._settings.path(INSIGHTS_FILE))
        return self.__dict__["_insight_log"]

    def _clock(self) -> datetime:
        """Now (this module's `_now`, which tests pin)."""
        return _now()

    def _keep_days(self) -> float:
        return keep_days(self._settings)

    def _expire(self) -> None:
        """Drop what is older than the retention; at 0 (不记录) every question and a rating's question and comment."""
        days = self._keep_days()
        if days > 0:
            self.insight_log.purge_before(stamp(_now() - timedelta(days=days)))
        else:
            self.insight_log.forget_question_text()

    def _without_damaged(self, damage: StoreDamaged, warnings: list[str]) -> None:
        """A feature's own store is damaged: say so once per answer and in the store notices; asking goes on."""
        line = str(damage)
        warnings.append(line)
        if line not in self.store_notices:
            self.store_notices.append(line)

    @staticmethod
    def question_time() -> str:
        """Now, as the question log stamps a question (`_log_asked`'s `asked_at`)."""
        return stamp()

    def _log_asked(self, trace: AskTrace, user: str, role: str | None, traffic: str = PERSON,
                   asked_at: str | None = None) -> AskTrace:
        """Keep the (masked) question for gaps and usage, as the retention setting allows; returns `trace`.

        `traffic` says where it came from (a person, "eval" or "test"): statistics count people by default.
        `asked_at`: when the question came, before its search (`question_time`; default now): a policy deleted and
        uploaded again while the answer was written was taken for the one it cited (review 375 #3).
        """
        if self._keep_days() <= 0:
            return trace
        try:
            with feature_store(INSIGHTS_FILE):
                self._log_question(trace, user, role, traffic, asked_at)
        except StoreDamaged as damage:
            self._without_damaged(damage, trace.search.warnings)
        return trace

    def _kept_question(self, trace: AskTrace) -> str:
        """The (masked) question kept for HR: the search question, but the one typed when the search question was
        written from earlier turns that showed restricted clauses (it may carry their words; SECURITY.md) — and of
        a turn that also told something about the asker, only the part it asked (the statement is theirs)."""
        restricted = trace.search_question != trace.question and any("all" not in a for a in context_audiences(self, trace))
        if not restricted:
            return redact_text(trace.search_question or trace.question)
        return redact_text(split_turn(trace.question).question if told_something(trace) else trace.question)

    def _log_question(self, trace: AskTrace, user: str, role: str | None, traffic: str = PERSON,
                      asked_at: str | None = None) -> None:
        outcome = outcome_of(trace)
        text = self._kept_question(trace)
        gap = outcome in (*GAP_OUTCOMES, WEAK_OUTCOME)  # a weak answer may be shown as a gap; it still quoted its documents
        standard = getattr(trace, "standard_answer", None) or {}
        self.insight_log.log_question(
            asked_at=asked_at or stamp(), user=user or "", role=role or "", question=text, outcome=outcome,
            hit_count=trace.hit_count, cited_docs=[] if outcome in ("zero_hit", "refused") else cited_docs(trace),
            nearest=nearest_clause(trace.search) if gap else {}, standard_id=standard.get("id"),
            model=self.embedder.model_id if gap else None, vector=self.embedder.embed_query(text) if gap else None,
            traffic=traffic, conversation=trace.conversation, turn=trace.turn,
        )
        self._expire()

    def _review_feedback(self, trace: AskTrace, rating: int, user: str, reason: str | None, comment: str,
                         reviewed: dict[str, Any], traffic: str = PERSON) -> int:
        """Store a rating for review (called by `record_feedback` after its checks; a rating is a person's).
        `reviewed` is `reviewed_trace(trace)`, which the caller also keeps in the catalog's copy."""
        reason, comment = feedback_fields(rating, reason, comment)  # checked and bounded before masking
        with feature_store(INSIGHTS_FILE):
            return self._store_feedback(trace, rating, user, reason, comment, reviewed, traffic)

    def _store_feedback(self, trace: AskTrace, rating: int, user: str, reason: str, comment: str,
                        data: dict[str, Any], traffic: str = PERSON) -> int:
        keep = self._keep_days() > 0  # 0 (不记录): the rating and its answer only, no question and no comment
        text = self._kept_question(trace) if keep and not told_only(trace) else ""  # a statement asked nothing
        disliked = rating < 0 and keep  # a 👎 with no question is no knowledge gap
        nearest = nearest_clause(trace.search) if disliked else {}
        return self.insight_log.add_feedback(
            created_at=stamp(), user=user, question=text, answer=redact_text(policy_answer(trace)), rating=rating,
            reason=reason, comment=redact_text(comment) if keep else "", docs=cited_docs(trace),
            trace=data if keep else without_question(data),
            nearest=nearest, model=self.embedder.model_id if disliked else None,
            vector=self.embedder.embed_query(text) if disliked else None,
            audiences=sorted({*revealed([data, nearest]), *context_audiences(self, trace)}),
            traffic=traffic,
        )
