"""Insight actions: the HR team's loop — knowledge gaps, feedback review, standard answers, usage.

Every reading or changing method takes the acting `Principal` and checks the
"insights" permission (HR and administrators). Only administrators see who
asked or rated; for everyone else user names are blanked before they leave the
engine. `_serve_standard_answer` and `_log_asked` (`facade.question_log`) are the two hooks `ask` calls;
they belong to asking and check nothing themselves.

`page_allowed` is the pages' guard (who may open which page, and the audit row of
a refusal); it lives here only because this mixin is the one the HR loop owns —
its home is `facade/accounts.py` with `can`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from ..conversations.records import trace_from_dict
from ..documents.catalog import office_today, visible_to
from ..errors import PermissionDenied, StoreDamaged
from ..insights.audiences import UNKNOWN, audiences_now, chunk_ids, cited_audiences, readable_by, revealed
from ..insights.days import day_window
from ..insights.gaps import group_gaps
from ..insights.log import unfold_kinds
from ..insights.records import (
    FEEDBACK_REASONS,
    FeedbackEntry,
    GapGroup,
    GapItem,
    InsightError,
)
from ..insights.reembed import refresh_gap_vectors, stale_gap_questions
from ..insights.rows import (
    doc_of_chunk,
)
from ..types import STANDARD, AskTrace, Formatted, Principal, SearchResult
from .access import require
from .insight_usage import EXPORT_KINDS, UsageActions  # noqa: F401 - EXPORT_KINDS: its former home
from .own_feedback import OwnFeedback
from .question_log import QuestionLog, outcome_of  # noqa: F401 - outcome_of: its former home
from .question_log import stamp as _stamp
from .standard_answers import StandardAnswerActions
from .stores import INSIGHTS_FILE, STANDARD_FILE, feature_store, uses_store

REGROUPING = "知识缺口里还有 "  # the start of the store notice of questions still being regrouped


class InsightActions(StandardAnswerActions, OwnFeedback, UsageActions, QuestionLog):
    """Mixin of `Assistant`: the 知识缺口, 反馈审阅, 标准答复 and 使用情况 pages and the `gaps`/`faq`/`usage` commands."""

    feedback_reasons: tuple[str, ...] = FEEDBACK_REASONS  # what chat offers with a 👎

    # -- the page guard ----------------------------------------------------------
    def page_allowed(self, page: str, permission: str, *, actor: Principal) -> bool:
        """May `actor` open `page` (its title)? A refusal writes one audit row: who, which page, when, why."""
        try:
            require(actor, permission)
        except PermissionDenied as exc:
            self._audit(actor, "refused", f"页面：{page}", "refused", str(exc))
            return False
        return True

    # -- the hooks ask calls -----------------------------------------------------
    def _serve_standard_answer(self, asked: str, question: str, result: SearchResult, *, role: str | None,
                               actor: Principal, on_token: Callable[[str], None] | None = None,
                               count: bool = True) -> AskTrace | None:
        """HR's standard answer when one matches the question (its hit counted unless `count` is off: the
        retrieval test page only shows which one chat would give), else None."""
        readable = actor.reading(role)  # never wider than what the asker may read, whatever `role` says
        try:
            with feature_store(STANDARD_FILE):
                store = self.standard_store
                if not store.count():
                    return None
                match = store.match(asked, self.embedder.embed_query(asked),
                                    lambda audience: visible_to(audience, readable))
                if match is None:
                    return None
                if count:
                    store.count_hit(match.entry.id, _stamp())
        except StoreDamaged as damage:
            self._without_damaged(damage, result.warnings)
            return None
        if on_token:
            on_token(Formatted(match.entry.answer))  # HR's markdown, kept as the stored turn keeps it
        return AskTrace(
            question=question, answer=match.entry.answer, search=result, memories=[], prompt="", sources=[],
            prompt_tokens=0, token_budget=self._settings.token_budget, dropped_hits=0, answerer="标准答复",
            standard_answer=match.to_dict(), outcome=STANDARD,
        )

    # -- what a reader may see ---------------------------------------------------
    def _doc_audiences(self, doc_ids: Sequence[str]) -> list[tuple[str, ...]]:
        """Audiences of documents named by a record that kept none (written before they were kept)."""
        found = []
        for doc_id in dict.fromkeys(doc_ids):
            versions = self.catalog.versions(doc_id)
            found.append(tuple(versions[-1].audience) if versions else UNKNOWN)
        return found

    def _narrowed_since(self, doc_ids: Iterable[str]) -> list[tuple[str, ...]]:
        """The audiences the named documents' versions in effect today have: a policy narrowed after the question
        was asked (uploaded to everyone by mistake, then for managers only) hides its clauses from HR here as it
        does in search (review 210), one scheduled for later not yet (`audiences_now`). A deleted document counts with
        the audience its version in effect had when it was deleted (narrowed, then deleted, stays narrowed)."""
        return audiences_now(self.catalog, [d for d in doc_ids if d], day=office_today(self._settings.timezone))

    def _clause_readable(self, actor: Principal, clause: dict[str, Any]) -> bool:
        """May `actor` read this stored clause (a gap's nearest clause)?"""
        if not clause or actor.readable is None:
            return True
        audiences = revealed(clause) or self._doc_audiences([clause.get("doc_id", "")])
        return readable_by([*audiences, *self._narrowed_since([clause.get("doc_id", "")])], actor.readable)

    def _feedback_readable(self, actor: Principal, entry: FeedbackEntry) -> bool:
        """May `actor` see this rated answer: every clause it showed is readable to them, then and now. A listed row
        carries no trace, so it is read here: the list must judge by what the detail shows (review 211)."""
        if actor.readable is None:
            return True
        full = entry if entry.trace else (self.insight_log.feedback_entry(entry.id) or entry)
        audiences = entry.audiences
        if audiences is None:  # an older row: its trace, else the documents it quoted
            audiences = revealed(full.trace or {}) or self._doc_audiences(entry.docs)
        shown = [*entry.docs, *(doc_of_chunk(c) for c in chunk_ids(full.trace or {}))]
        return readable_by([*audiences, *self._narrowed_since(shown)], actor.readable)

    def _gap_readable(self, actor: Principal, item: GapItem) -> bool:
        """A 👎 is on the gap page only for who may see the rated answer in 反馈审阅 (its question was asked with it)."""
        if not readable_by(item.audiences or [], actor.readable):
            return False
        if item.feedback_id is None or actor.readable is None:  # an asked question: its nearest clause is checked apart
            return True
        entry = self.insight_log.feedback_entry(item.feedback_id)  # as 反馈审阅 decides, a narrowing since included
        return entry is not None and self._feedback_readable(actor, entry)

    # -- knowledge gaps ----------------------------------------------------------
    def feedback_trace(self, feedback_id: int, *, actor: Principal | None = None) -> AskTrace:
        """The rated answer's trace as a record, for the same Chinese view as chat's 技术细节 (the review page showed
        its stored JSON: 77 English keys, review 356); checked as `feedback_detail` is."""
        return trace_from_dict(self.feedback_detail(feedback_id, actor=actor).trace)

    @uses_store(INSIGHTS_FILE)
    def knowledge_gaps(self, *, since: str | date | None = None, until: str | date | None = None,
                       include_weak: bool = False, include_tests: bool = False,
                       actor: Principal | None = None) -> list[GapGroup]:
        """People's unanswered questions and 👎 answers in the window (with `include_weak`, answers that rested on
        依据较弱 evidence only too; with `include_tests`, eval and test questions too), grouped by meaning;
        user names for admins only."""
        actor = self._acting(actor, "insights")
        self._expire()
        start, end = day_window(since, until, ZoneInfo(self._settings.timezone))
        # after a model change: a bounded share of the earlier questions embedded again per read, the rest said
        _, left = refresh_gap_vectors(self.insight_log, self.embedder.model_id, self.embedder.embed_queries)
        self._say_regrouping(left)
        cache: dict[str, dict] = {}
        items, vectors = self.insight_log.gap_items(  # a 👎 the reader may not see neither listed nor a mark
            self.embedder.model_id, start, end, include_weak=include_weak, include_tests=include_tests,
            readable=lambda item: self._gap_readable(actor, item),
            cited_readable=lambda docs, asked_at: actor.readable is None or readable_by(  # as 使用情况 judges
                cited_audiences(self.catalog, docs, asked_at, cache, office_today(self._settings.timezone)),
                actor.readable))
        if not items:
            return []
        for item in items:  # the question stays (it is the asker's); a clause the reader may not read goes
            if not self._clause_readable(actor, item.nearest):
                item.nearest = {}
        import numpy as np

        groups = group_gaps(items, np.vstack(vectors), with_users=actor.role == "admin")
        self._mark_answered(groups, {item.text: vector for item, vector in zip(items, vectors, strict=True)}, actor)
        return [unfold_kinds(g) for g in groups]  # a turn rated 👎 counted once, its 👎 a mark

    def _mark_answered(self, groups: list[GapGroup], vectors: dict[str, Any], actor: Principal) -> None:
        """The standard answer now served to everyone for a group's question, on the group: HR answered it from this
        page and it stayed listed as open, its form too (review 382 #4). Only one for all staff: one for HR or
        managers alone leaves the employees who asked unanswered (review 383 #1)."""
        try:
            with feature_store(STANDARD_FILE):
                store = self.standard_store
                if not store.count():
                    return
                for group in groups:
                    match = store.match(group.representative, vectors[group.representative],
                                        lambda audience: "all" in audience and visible_to(audience, actor.readable))
                    if match is not None:
                        group.answered_by = {"id": match.entry.id, "question": match.entry.question}
        except StoreDamaged:
            return  # said where the standard answers are used; the gaps are listed as they are

    @uses_store(INSIGHTS_FILE)
    def regrouping_gap_questions(self, *, actor: Principal | None = None) -> int:
        """How many earlier gap questions still wait to be embedded with the current model (not listed meanwhile)."""
        self._acting(actor, "insights")
        return stale_gap_questions(self.insight_log, self.embedder.model_id)

    def _say_regrouping(self, left: int) -> None:
        """The store notice of the questions still being regrouped after a model change: replaced, gone at 0."""
        self.store_notices[:] = [line for line in self.store_notices if not line.startswith(REGROUPING)]
        if left:
            self.store_notices.append(f"{REGROUPING}{left} 条较早的提问还在按新的嵌入模型重新归组，暂未列出；"
                                      "每次打开知识缺口页都会继续，直到全部列出")

    # -- feedback review ---------------------------------------------------------
    @uses_store(INSIGHTS_FILE)
    def feedback_reviews(self, *, rating: int | None = None, doc_id: str | None = None,
                         since: str | date | None = None, until: str | date | None = None,
                         unread_only: bool = False, include_tests: bool = False,
                         actor: Principal | None = None) -> list[FeedbackEntry]:
        """Rated answers, newest first; filters by rating (1/-1), quoted document, dates and unread (people's
        ratings only unless `include_tests`)."""
        actor = self._acting(actor, "insights")
        if rating is not None and rating not in (1, -1):  # 0 was read as 👎
            raise InsightError(f"评价只能是 1（👍）或 -1（👎）：{rating}")
        self._expire()
        start, end = day_window(since, until, ZoneInfo(self._settings.timezone))
        entries = self.insight_log.feedback(rating=rating, doc_id=doc_id or None, since=start, until=end,
                                            unread_only=unread_only, include_tests=include_tests)
        return [self._named_for(actor, e) for e in entries if self._feedback_readable(actor, e)]

    @uses_store(INSIGHTS_FILE)
    def feedback_detail(self, feedback_id: int, *, actor: Principal | None = None) -> FeedbackEntry:
        """One rated answer with its full trace."""
        actor = self._acting(actor, "insights")
        entry = self.insight_log.feedback_entry(feedback_id)
        if entry is None or not self._feedback_readable(actor, entry):  # the same words: no hint that it exists
            raise InsightError(f"没有编号为 {feedback_id} 的反馈")
        return self._named_for(actor, entry)

    @uses_store(INSIGHTS_FILE)
    def feedback_standard_answers(self, ids: Sequence[int], *, actor: Principal | None = None) -> dict[int, dict]:
        """Rated row id -> the standard answer it rated ({"id", "question", "author"}, as its trace keeps it), for the
        rows in `ids` that rated one and the actor may read: a 👎 on HR's own answer is fixed on 标准答复, not by
        searching."""
        actor = self._acting(actor, "insights")
        found: dict[int, dict] = {}
        for feedback_id in ids:
            entry = self.insight_log.feedback_entry(feedback_id)
            if entry is None or not self._feedback_readable(actor, entry):
                continue
            standard = (entry.trace or {}).get("standard_answer")
            if isinstance(standard, dict) and standard.get("id"):
                found[entry.id] = {k: str(standard.get(k) or "") for k in ("id", "question", "author")}
        return found

    @uses_store(INSIGHTS_FILE)
    def mark_feedback_reviewed(self, ids: Sequence[int], *, reviewed: bool = True,
                               actor: Principal | None = None) -> int:
        """Mark entries read (or unread again); returns how many changed."""
        actor = self._acting(actor, "insights")
        readable = [i for i in ids if (e := self.insight_log.feedback_entry(i)) and self._feedback_readable(actor, e)]
        return self.insight_log.mark_reviewed(readable, actor.user, _stamp(), reviewed=reviewed)

    @staticmethod
    def _named_for(actor: Principal, entry: FeedbackEntry) -> FeedbackEntry:
        if actor.role != "admin":
            entry.user = ""
            entry.reviewed_by = "HR" if entry.reviewed_by else None
        return entry
