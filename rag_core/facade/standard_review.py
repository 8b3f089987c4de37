"""Standard answers held for review: a document one was written from was deleted.

A standard answer is served before search, so one resting on a deleted document would keep
quoting a policy that no longer exists. Deleting a document (`DocumentActions.delete_document`)
therefore holds every standard answer that recorded it as its source, or names it in its clauses
(`insights.standard.references`: a whole 《title》, or the bare title anywhere in a sentence except inside a
longer name: a title the catalog knows that contains it, or a longer document name it runs on into),
unless a live document every reader of the answer can read still carries what it names (a
duplicate deleted): it is not served, nothing is deleted, and the 标准答复 page says why until HR
releases or deletes it. Split from `facade.insights` (kept under the 400-line limit); `InsightActions`
inherits `StandardReview`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from ..documents.catalog import local_day, visible_to
from ..errors import StoreDamaged
from ..insights.standard import Hold, StandardAnswerError
from ..types import DocumentInfo, Principal
from .stores import STANDARD_FILE, feature_store, uses_store

RELEASE_HINT = "请核对这条答复：仍然正确就点“复核无误，恢复使用”，已不适用就删除它。"


class StandardReview:
    """Mixin of `Assistant` (through `InsightActions`): holding, explaining and releasing standard answers."""

    _settings: Any
    catalog: Any
    standard_store: Any
    store_notices: list[str]

    def _hold_standard_answers(self, doc_id: str, versions: list[DocumentInfo]) -> int:
        """After `doc_id` is deleted: hold the standard answers resting on it; how many were held.

        A damaged standard-answers file does not undo the delete: its line goes to the store notices."""
        if not versions or (self.__dict__.get("_standard_store") is None
                            and not self._settings.path(STANDARD_FILE).exists()):
            return 0  # no standard answer was ever stored: nothing to hold
        titles = list(dict.fromkeys(v.title for v in reversed(versions)))  # the newest title first
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        # a copy still live with the title (a duplicate HR deleted) keeps an answer naming it served
        live = [(v.doc_id, v.title, v.audience) for v in self.catalog.live_versions() if v.doc_id != doc_id]
        try:
            with feature_store(STANDARD_FILE):
                return len(self.standard_store.hold_resting_on(doc_id, titles, versions[-1].audience, stamp, live))
        except StoreDamaged as damage:
            if str(damage) not in self.store_notices:
                self.store_notices.append(str(damage))
            return 0

    @uses_store(STANDARD_FILE)
    def standard_answer_holds(self, *, actor: Principal | None = None) -> dict[str, str]:
        """Why each held standard answer the actor may read is not served (id -> a Chinese line saying what to do).

        The deleted document is named only to who may read its audience."""
        actor = self._acting(actor, "insights")  # type: ignore[attr-defined]
        shown = {e.id for e in self.standard_store.list() if visible_to(e.audience, actor.readable)}
        return {answer_id: self._hold_line(hold, actor) for answer_id, hold in self.standard_store.holds().items()
                if answer_id in shown}

    def _hold_line(self, hold: Hold, actor: Principal) -> str:
        day = local_day(hold.held_at, ZoneInfo(self._settings.timezone))
        named = f"《{hold.doc_title}》" if visible_to(hold.doc_audience, actor.readable) else "（你看不到的受众的文档）"
        return (f"待复核：它依据的文档{named}已于 {day} 删除，这条答复暂停使用，同类问题改按制度检索回答。"
                + RELEASE_HINT)

    @uses_store(STANDARD_FILE)
    def release_standard_answer(self, answer_id: str, *, actor: Principal | None = None) -> None:
        """HR checked a held answer and it still holds: serve it again (one audit row)."""
        actor = self._acting(actor, "insights")  # type: ignore[attr-defined]
        self._visible_standard(answer_id, actor, "release")
        self.standard_store.release(answer_id)
        self._audit(actor, "standard.release", answer_id, "ok", "复核无误，恢复使用")  # type: ignore[attr-defined]

    def _visible_standard(self, answer_id: str, actor: Principal, verb: str) -> None:
        """Refuse another audience's standard answer as an unknown id (no hint it exists), with a refused audit row
        as `delete_document` writes: the trail shows who tried, the answer stays unnamed to them."""
        if not visible_to(self.standard_store.get(answer_id).audience, actor.readable):
            self._audit(actor, "refused", f"standard.{verb} {answer_id}", "refused", "受众不可见")  # type: ignore[attr-defined]
            raise StandardAnswerError(f"没有编号为 {answer_id} 的标准答复")
