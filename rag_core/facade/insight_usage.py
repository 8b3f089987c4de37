"""Usage and the insight exports: how often each policy was quoted, and the files HR shares.

Split from `facade.insights` (kept under the 400-line limit); `InsightActions` inherits `UsageActions`. Both read a
window of whole office days through the gaps' own parsing (`day_window`): a usage export for January held today's
questions, and accepted 9999-99-99 and "yesterday" that the gaps export refuses. Both say whether questions are
recorded at all (`question_retention_days` 0 is 不记录) and how many the window holds, so a page never reads an
empty log as "every policy was never cited" or "every question was answered".
"""

from __future__ import annotations

from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from ..documents.catalog import office_today, visible_to
from ..documents.standing import standing_versions
from ..errors import StoreDamaged
from ..insights.audiences import cited_audiences, cited_then, readable_by
from ..insights.days import day_window, parse_day
from ..insights.export import FORMATS, for_people, to_csv, to_xlsx
from ..insights.records import PERSON, InsightError
from ..insights.rows import gap_row
from ..insights.usage import NEVER_CITED, sections_csv, usage_report
from ..types import Principal
from .question_log import QuestionLog
from .stores import INSIGHTS_FILE, STANDARD_FILE, feature_store, uses_store

EXPORT_KINDS = {"gaps": "知识缺口", "feedback": "反馈", "usage": "使用情况"}


class UsageActions(QuestionLog):
    """Mixin of `InsightActions`: the 使用情况 page, `question_window` for the pages' empty states, the exports."""

    standard_store: Any  # `StandardReview`'s, read through its public methods

    def recording_questions(self) -> bool:
        """Are people's questions kept at all (`question_retention_days` above 0)?"""
        return self._keep_days() > 0

    @uses_store(INSIGHTS_FILE)
    def question_window(self, *, since: str | date | None = None, until: str | date | None = None,
                        include_tests: bool = False, actor: Principal | None = None) -> dict[str, Any]:
        """Whether questions are recorded, and how many the window holds (people's only unless `include_tests`):
        what the gaps page says instead of 问题都有制度可答 when there was nothing to judge."""
        actor = self._acting(actor, "insights")
        self._expire()
        start, end = day_window(since, until, ZoneInfo(self._settings.timezone))
        rows = self._readable_rows(self.insight_log.question_rows(start, end, include_tests=include_tests), actor)
        return {"recording": self.recording_questions(), "questions": len(rows)}

    def _readable_rows(self, rows: list[dict[str, Any]], actor: Principal,
                       cache: dict[str, dict] | None = None) -> list[dict[str, Any]]:
        """The logged questions whose cited documents, and standard answer, the actor may read now (review 333: HR's
        totals and daily bars rose with questions answered only from a managers' policy HR cannot see; review 336:
        or by a managers' standard answer); one never answered counts, one whose standard answer is gone too."""
        if actor.readable is None:
            return rows
        day, cache = office_today(self._settings.timezone), {} if cache is None else cache
        readable = [row for row in rows if readable_by(
            cited_audiences(self.catalog, row["cited_docs"], row["asked_at"], cache, day), actor.readable)]
        served = {row["standard_id"] for row in readable if row.get("standard_id")}
        hidden = self._hidden_standard(served, actor) if served else set()
        return [row for row in readable if row.get("standard_id") not in hidden]

    def _hidden_standard(self, ids: set[str], actor: Principal) -> set[str]:
        """The standard answers among `ids` the actor may not read, and all of them when the file is gone or cannot be
        read (none is opened anew here). One deleted since counts: nothing tells whose it was, and leaving them all out
        took from HR the questions of every answer HR had deleted for everyone (review 338; 337 had asked it)."""
        if not self._settings.path(STANDARD_FILE).exists():
            return ids
        try:
            with feature_store(STANDARD_FILE):
                store = self.standard_store
                return ids & {e.id for e in store.list()} - store.readable_ids(actor.readable)
        except StoreDamaged:
            return ids

    @staticmethod
    def checked_day(value: str | None, name: str) -> date | None:
        """A date filter (`name`: 开始 / 结束) as every insight action reads it, or its Chinese refusal: the CLI checks
        --since/--until with it as it parses them (review 392 #7)."""
        return parse_day(value, name)

    @uses_store(INSIGHTS_FILE)
    def usage(self, *, since: str | date | None = None, until: str | date | None = None,
              include_tests: bool = False, actor: Principal | None = None) -> dict[str, Any]:
        """Citations per document (30/90 days, total), never-cited documents, questions per day (every office day
        of the window, a day without questions 0): people's questions in [since, until] only unless
        `include_tests`; `left_out` counts the eval and test questions not counted, `recording` whether questions
        are kept at all. With `since` or `until` the citations and the never-cited list are the window's
        (`usage_report`: `cited_window` per document, `window` its ends)."""
        actor = self._acting(actor, "insights")
        self._expire()
        zone = ZoneInfo(self._settings.timezone)
        start, end = day_window(since, until, zone)  # refuses what the gaps refuse, before anything is read
        standing = standing_versions(self.catalog.live_versions(), office_today(self._settings.timezone))
        docs = [(d.doc_id, d.title) for d in standing if visible_to(d.audience, actor.readable)]  # not replaced ones
        cache: dict[str, dict] = {}  # each cited document's deletes read once, for who may read and for the credit
        # tests read and filtered as people's questions are: the count left out named a test of a managers-only
        # policy to HR, and ticking 含测试 did not add it (review 391 #3)
        every = self._readable_rows(self.insight_log.question_rows(start, end, include_tests=True), actor, cache)
        rows = every if include_tests else [row for row in every if row["traffic"] == PERSON]
        left_out = len(every) - len(rows)
        reused = cache.setdefault("then", {})  # a deleted document's citations are not credited to its id's new one
        rows = [{**row, "cited_docs": list(cited_then(self.catalog, row["cited_docs"], row["asked_at"], reused)[0])}
                for row in rows]
        report = usage_report(rows, dict(docs).items(), self._clock(), zone, since=parse_day(since, "开始"),
                              until=parse_day(until, "结束"), keep_days=self._keep_days())
        report["left_out"] = left_out
        report["recording"] = self.recording_questions()
        return report

    def export_insights(self, kind: str, fmt: str = "xlsx", *, since: str | date | None = None,
                        until: str | date | None = None, include_tests: bool = False, include_weak: bool = False,
                        rating: int | None = None, doc_id: str | None = None, unread_only: bool = False,
                        actor: Principal | None = None) -> bytes:
        """`gaps`, `feedback` or `usage` as CSV (UTF-8 with BOM) or Excel bytes (people's traffic only unless
        `include_tests`), with the filters its page shows (`since`/`until` for all three; `include_weak` for gaps;
        `rating`, `doc_id` and `unread_only` for feedback): the file HR shares holds the rows HR saw (review 210).
        Usage has three tables: one sheet each in Excel; in CSV all three, each under its 【name】 line."""
        actor = self._acting(actor, "insights")  # who may export comes before what: an employee hears no format rules
        if kind not in EXPORT_KINDS or fmt not in FORMATS:
            raise InsightError(f"导出类型应为 {'/'.join(EXPORT_KINDS)}，格式应为 {'/'.join(FORMATS)}")
        sheets: dict[str, list[dict[str, Any]]]
        if kind == "gaps":
            groups = self.knowledge_gaps(since=since, until=until, include_tests=include_tests,
                                         include_weak=include_weak, actor=actor)
            sheets = {"知识缺口": [gap_row(g) for g in groups]}
        elif kind == "feedback":
            entries = self.feedback_reviews(since=since, until=until, include_tests=include_tests, rating=rating,
                                            doc_id=doc_id, unread_only=unread_only, actor=actor)
            # the documents named as the page names them: by the titles the actor may read (review 364)
            titles = {d.doc_id: d.title for d in self.list_documents(actor=actor)}
            sheets = {"反馈": [{**e.to_dict(), "docs": [titles.get(d, d) for d in e.docs]} for e in entries]}
        else:
            report = self.usage(since=since, until=until, include_tests=include_tests, actor=actor)
            never = NEVER_CITED[report["window"] is not None]  # a window's sheet says it is the window's
            sheets = {"文档引用": report["documents"], "每日提问": report["per_day"], never: report["never_cited"]}
        zone = ZoneInfo(self._settings.timezone)
        sheets = {name: for_people(name, rows, zone) for name, rows in sheets.items()}
        if fmt == "xlsx":
            return to_xlsx(sheets)
        return sections_csv(sheets) if len(sheets) > 1 else to_csv(next(iter(sheets.values())))
