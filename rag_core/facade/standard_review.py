"""Standard answers held for review: a document one was written from was deleted, or replaced by a version
that no longer supports it (narrowed to fewer readers, or without the clause it quotes: `insights.standard_versions`).

A standard answer is served before search, so one resting on a deleted document would keep
quoting a policy that no longer exists. Deleting a document (`DocumentActions.delete_document`)
therefore holds every standard answer that recorded it as its source, or names it in its clauses
(`insights.standard_refs.references`: a whole 《title》, or the bare title anywhere in a sentence except inside a
longer name: a title the catalog knows that contains it, or a longer document name it runs on into), or cites an
article or a run of its text without naming any document (`insights.standard_versions.lost_with`),
unless a live document every reader of the answer can read still carries what it names (a
duplicate deleted): it is not served, nothing is deleted, and the 标准答复 page says why until HR
releases or deletes it. Split from `facade.insights` (kept under the 400-line limit); `InsightActions`
inherits `StandardReview`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from ..documents.audience_names import audience_names
from ..documents.catalog import local_day, office_today, versions_in_effect, visible_to
from ..documents.standing import effect_by_day, scheduled
from ..errors import StoreDamaged
from ..insights.standard import Hold, StandardAnswerError, StandardAnswers
from ..insights.standard_checked import NARROWER
from ..insights.standard_duplicates import refuse_duplicate
from ..insights.standard_pending import office_midnight
from ..insights.standard_refs import Basis, narrower_basis, policy_text
from ..insights.standard_versions import CHANGED, NARROWED, lost_with, outdated, quoting
from ..storage.sqlite_access import UNREADABLE, access_problem
from ..types import Chunk, DocumentInfo, Principal
from .core import FacadeCore
from .stores import STANDARD_FILE, feature_store, uses_store

_open_lock = threading.Lock()  # one process opens the store once
RELEASE_HINT = "请核对这条答复：仍然正确就点“复核无误，恢复使用”，已不适用就删除它。"
READ_ONLY = "文件只读或没有写入权限，请检查它的所有者和权限，例如恢复备份时是否用错了用户"


class StandardReview(FacadeCore):
    """Mixin of `Assistant` (through `InsightActions`): holding, explaining and releasing standard answers."""

    catalog: Any
    embedder: Any
    vectors: Any
    store_notices: list[str]

    @property
    def standard_store(self) -> StandardAnswers:
        """HR's standard answers, opened on first use; the answers stored before today's basis rule are judged as it
        opens, before any is served (`_check_stored_standard`)."""
        with _open_lock:
            if self.__dict__.get("_standard_store") is None:
                embed = self.embedder.embed_query
                with feature_store(STANDARD_FILE):
                    store = StandardAnswers(
                        self._settings.path(STANDARD_FILE), self.vectors.client,
                        f"standard_answers_{self._store_id()}", self.embedder.model_id,
                        lambda texts: [embed(t) for t in texts],
                    )
                    self._check_stored_standard(store)
                    self.__dict__["_standard_store"] = store
        return self.__dict__["_standard_store"]

    def _standard_stored(self) -> bool:
        """Was a standard answer ever stored? If not, nothing can be held (and the file is not created)."""
        return self.__dict__.get("_standard_store") is not None or self._settings.path(STANDARD_FILE).exists()

    def _note_damage(self, damage: StoreDamaged) -> None:
        """A damaged standard-answers file does not undo a document change: its line goes to the store notices."""
        if str(damage) not in self.store_notices:
            self.store_notices.append(str(damage))

    def _standard_basis(self, replaced: DocumentInfo | None) -> list[Chunk]:
        """The chunks of the version an upload is about to replace, read before the write retires them: what the
        standard answers quoted (`_hold_outdated_standard`). Empty when there is nothing to check."""
        if replaced is None or not self._standard_stored():
            return []
        return self.catalog.chunks_of(replaced.doc_id, replaced.version)

    def _hold_outdated_standard(self, new: DocumentInfo, chunks: list[Chunk], replaced: DocumentInfo,
                                basis: list[Chunk], reader: Principal) -> list[str]:
        """After `new` (its `chunks`) took effect in place of `replaced` (`basis`), or was scheduled to: hold the
        standard answers it no longer supports, from its effective day when that is still to come (nothing runs on
        that day: `insights.standard_pending`); the upload report's warning, if any, counting only the answers
        `reader` may read (review 333: HR was told of a managers' answer it cannot open). A damaged file does not
        undo the upload."""
        day = new.effective_date if scheduled(new, office_today(self._settings.timezone)) else None
        starts = (new.doc_id, new.version, office_midnight(day, self._settings.timezone)) if day else None
        # every title the document had: an answer naming it by a title two renames ago still rests on it
        history = [v.title for v in reversed(self.catalog.versions(new.doc_id))]
        titles = list(dict.fromkeys(t for t in (new.title, replaced.title, *history) if t))
        known = [v.title for v in self.catalog.live_versions() if v.doc_id != new.doc_id and v.title]
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with feature_store(STANDARD_FILE):
                store = self.standard_store
                reasons = outdated(store.list(), store.recorded_for(new.doc_id), titles, basis, chunks,
                                   new.audience, known)
                hold = Hold(new.title or new.doc_id, new.audience, stamp, effective=day or "")
                held = store.hold(reasons, hold, starts) if reasons else []
                shown = store.readable_ids(reader.readable) if held else set()
                held = [answer_id for answer_id in held if answer_id in shown]
        except StoreDamaged as damage:
            self._note_damage(damage)
            return []
        if held and day:
            return [f"{len(held)} 条依据这份文档当前版本的标准答复将于 {day} 新版本生效时自动暂停使用（新版本缩小了可见范围或"
                    "改动了它引用的条款），在此之前照常使用；届时请到“标准答复”页核对后恢复或删除"]
        return [f"{len(held)} 条依据这份文档上一版的标准答复已暂停使用（这一版缩小了可见范围或改动了它引用的条款），"
                "请到“标准答复”页核对后恢复或删除"] if held else []

    def _keep_pending_holds(self, doc_id: str) -> None:
        """After `doc_id`'s versions changed: forget the holds waiting for a scheduled version that will no longer
        take effect (retired by a later upload, or replaced on its day by another dated the same day)."""
        if not self._standard_stored():
            return
        live = [v for v in self.catalog.versions(doc_id) if v.status == "current"]
        today = office_today(self._settings.timezone)
        coming = {v.version for v in live if scheduled(v, today)
                  and versions_in_effect(live, v.effective_date or today).get(doc_id) is v}
        try:
            with feature_store(STANDARD_FILE):
                self.standard_store.pending.keep_versions(doc_id, coming)
        except StoreDamaged as damage:
            self._note_damage(damage)

    def _move_pending_holds(self, old: DocumentInfo, new: int) -> None:
        """Re-indexing wrote the scheduled `old` again as v`new`: the holds waiting for it wait for the copy."""
        if not self._standard_stored():
            return
        try:
            with feature_store(STANDARD_FILE):
                self.standard_store.pending.move(old.doc_id, old.version, new)
        except StoreDamaged as damage:
            self._note_damage(damage)

    def _deleted_basis(self, doc_id: str) -> list[Chunk]:
        """The chunks of a document about to be deleted, read before they go: the articles and runs an answer
        may cite without naming the document (`insights.standard_versions.lost_with`). Empty when no standard answer was
        ever stored."""
        return self.catalog.chunks_of(doc_id) if self._standard_stored() else []

    def _hold_standard_answers(self, doc_id: str, versions: list[DocumentInfo], basis: Sequence[Chunk] = ()) -> int:
        """After `doc_id` is deleted: hold the standard answers resting on it; how many were held.

        A damaged standard-answers file does not undo the delete: its line goes to the store notices."""
        if not versions or not self._standard_stored():
            return 0  # no standard answer was ever stored: nothing to hold
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with feature_store(STANDARD_FILE):
                store = self.standard_store
                titles, live, lost = self._deletion_inputs(doc_id, versions, store.list(), basis)
                return len(store.hold_resting_on(doc_id, titles, versions[-1].audience, stamp, live, also=lost))
        except StoreDamaged as damage:
            self._note_damage(damage)
            return 0

    def _deletion_inputs(self, doc_id: str, versions: list[DocumentInfo], entries: list[Any],
                         basis: Sequence[Chunk]) -> tuple[list[str], list[tuple[str, str, Any]], set[str]]:
        """What deciding which standard answers rest on `doc_id`, deleted (`insights.standard_versions.resting_on`),
        reads: its titles (the newest first), the documents in effect besides it ((doc_id, title, audience): a copy in
        effect with the title, a duplicate HR deleted, keeps an answer naming it served; a version a scheduled one
        replaced stays 'current' in the catalog but no reader sees it, so it keeps nothing), and the entries resting
        on it without naming it (`lost_with`, from `basis`, its chunks read before they went). The hold and the
        delete's preview read the same."""
        titles = list(dict.fromkeys(v.title for v in reversed(versions)))
        in_effect = versions_in_effect(self.catalog.live_versions(), office_today(self._settings.timezone))
        others = [v for v in in_effect.values() if v.doc_id != doc_id]
        live = [(v.doc_id, v.title, v.audience) for v in others]
        standing = {v.doc_id for v in others}
        sourced = {e.id for e in entries if standing.intersection(self.standard_store.sources_of(e.id))}
        lost = lost_with(entries, basis, [*titles, *(t for _, t, _ in live if t)],
                         lambda: [(v.audience, self.catalog.chunks_of(v.doc_id, v.version)) for v in others], sourced)
        return titles, live, lost

    @uses_store(STANDARD_FILE)
    def standard_answer_holds(self, *, actor: Principal | None = None) -> dict[str, str]:
        """Why each held standard answer the actor may read is not served (id -> a Chinese line saying what to do).

        The deleted document is named only to who may read its audience."""
        actor = self._acting(actor, "insights")
        store = self._judged_store()
        shown = store.readable_ids(actor.readable)
        return {answer_id: self._hold_line(holds, actor)
                for answer_id, holds in store.hold_reasons().items() if answer_id in shown}

    def _hold_line(self, holds: list[Hold], actor: Principal) -> str:
        """One line naming every reason the answer is held (HR checks them all before releasing it)."""
        reasons = list(dict.fromkeys(self._hold_reason(hold, actor) for hold in holds))
        return f"待复核：{'；'.join(reasons)}，这条答复暂停使用，同类问题改按制度检索回答。" + RELEASE_HINT

    def _hold_reason(self, hold: Hold, actor: Principal) -> str:
        day = local_day(hold.held_at, ZoneInfo(self._settings.timezone))
        version = f"{day} 上传、{hold.effective} 生效的新版本" if hold.effective else f"{day} 上传的新版本"
        visible = visible_to(hold.doc_audience, actor.readable)
        named = f"《{hold.doc_title}》" if visible else "（你看不到的受众的文档）"
        if hold.reason == NARROWED:
            only = f"（只给{audience_names(hold.doc_audience)}看）" if visible else ""
            why = f"于 {version}缩小了可见范围{only}，这条答复的部分读者已看不到它"
        elif hold.reason == CHANGED:
            why = f"于 {version}改动或删去了这条答复引用的条款"
        elif hold.reason == NARROWER:
            only = f"只给{audience_names(hold.doc_audience)}看，" if visible else "，"
            why = f"{only}这条答复的部分读者看不到它（按现行规则复核已存的答复时发现）"
        else:
            why = f"已于 {day} 删除"
        return f"它依据的文档{named}{why}"

    @uses_store(STANDARD_FILE)
    def release_standard_answer(self, answer_id: str, *, seen: str | None = None,
                                actor: Principal | None = None) -> None:
        """HR checked a held answer and it still holds: serve it again (one audit row).

        `seen`: the hold line (`standard_answer_holds`) HR was shown when deciding; refused when it no longer reads
        so (a reason arrived since, as from another tab or an upload), so no reason is released unchecked."""
        actor = self._acting(actor, "insights")
        self._judged_store()  # first: held for a document the actor cannot read, the check below counts it
        self._visible_standard(answer_id, actor, "release")
        entry = self.standard_store.get(answer_id)
        # an answer held for a document the actor cannot read was refused above as unknown (`readable_ids`)
        self._refuse_narrower_basis(entry.audience, quoting(entry), self.standard_store.sources_of(answer_id), actor,
                                    unreadable=False)
        now = self.standard_answer_holds(actor=actor).get(answer_id)
        if seen is not None and now is not None and now != seen:
            raise StandardAnswerError("这条标准答复在你打开页面后又有了新的暂停原因，未恢复使用。请刷新页面，核对全部原因后再决定"
                                      "恢复或删除。现在的原因：" + now)
        refuse_duplicate(self.standard_store, entry.question, entry.audience, releasing=entry)  # as adding one
        self.standard_store.release(answer_id)
        self._audit(actor, "standard.release", answer_id, "ok", "复核无误，恢复使用")

    def _refuse_narrower_basis(self, audience: Sequence[str], clauses: Sequence[str], sources: Sequence[str],
                               actor: Principal, *, unreadable: bool = True) -> None:
        """Refuse (Chinese) an answer for readers wider than a document it rests on (`_narrower_found`): served, it
        would give them a clause they may not read. A document the actor cannot read is not named, and counts only
        when `unreadable`: an answer being added cannot rest on one (they cannot have drafted from it, nor know its
        text), and judging one would tell a guessed title or id from a made-up one. A version they cannot read of a
        document they can (its id and title in a live version they read: one they uploaded, then narrowed from a
        day on) still counts by its name and recorded id, never by a run of its text."""
        today = office_today(self._settings.timezone)
        found = self._narrower_found(audience, clauses, sources, actor if not unreadable else None, {})
        if not found:
            return
        named = "、".join(dict.fromkeys(
            f"《{t}》（{'' if day == today else day + ' 起'}只给{audience_names(a)}看）"
            if visible_to(a, actor.readable) else "一份你看不到的文档" for (t, a), day in found.items()))
        raise StandardAnswerError(f"这条标准答复给{audience_names(audience or ('all',))}看，但它依据的{named}有些读者看不到。"
                                  "请把受众改成都能看到这些文档的人，或换成他们都能看的依据后再试")

    def _narrower_found(self, audience: Sequence[str], clauses: Sequence[str], sources: Sequence[str],
                        actor: Principal | None, texts: dict[tuple[str, int], str]) -> dict[tuple[str, tuple[str, ...]], str]:
        """(title, audience) -> the first day it holds, of each document an answer for `audience` rests on that some
        of its readers cannot read (`narrower_basis`). Checked on the versions in effect today and on each day a
        scheduled version takes effect (`effect_by_day`): a version replaced on its day still stands in the catalog,
        and a narrower one still to come would reach them then. `actor`: only what they may judge counts (see
        `_refuse_narrower_basis`); None: every document. `texts`: the versions' texts read so far (shared by calls)."""
        today = office_today(self._settings.timezone)
        live = self.catalog.live_versions()
        seen = {(v.doc_id, v.title) for v in live if actor is None or visible_to(v.audience, actor.readable)}
        found: dict[tuple[str, tuple[str, ...]], str] = {}

        def basis(v: DocumentInfo) -> Basis | None:
            def read() -> str:  # read once, and only for a clause long enough to quote it
                if (v.doc_id, v.version) not in texts:
                    texts[v.doc_id, v.version] = policy_text(self.catalog.chunks_of(v.doc_id, v.version))
                return texts[v.doc_id, v.version]
            if actor is None or visible_to(v.audience, actor.readable):
                return Basis(v.doc_id, v.title, v.audience, read)
            return Basis(v.doc_id, v.title, v.audience) if (v.doc_id, v.title) in seen else None

        for day, versions in effect_by_day(live, today):
            docs = [b for b in map(basis, versions) if b is not None]
            for title, labels in narrower_basis(clauses, sources, audience, docs):
                found.setdefault((title, labels), day)
        return found

    def _check_stored_standard(self, store: Any) -> None:
        """Judge the answers in `store` by today's rule for what an answer rests on, once per file and rule version
        (`insights.standard_checked`): each resting on a document some of its readers cannot read is held for HR
        (its documents in the hold rows, named only to who may read them), and the store notices say how many.
        Until this has run the store serves no answer. Takes the store, not `standard_store`: it is called as that
        opens it. A file the judgement cannot be written to is judged for this process (held in memory, the sound
        answers served) and the store notices say it was not saved, and why."""
        if not store.basis.due():
            return
        texts: dict[tuple[str, int], str] = {}
        found = {e.id: list(self._narrower_found(e.audience, quoting(e), store.sources_of(e.id), None, texts))
                 for e in store.list()}
        held = store.basis.hold({i: docs for i, docs in found.items() if docs},
                                datetime.now(UTC).isoformat(timespec="seconds"))
        line = (f"标准答复：按现行规则复核了已存的答复，{len(held)} 条依据了只给部分人看的文档、却给更多人看，已暂停使用。"
                "请到“标准答复”页核对：删除它，或改给都能看到这些文档的人后重新添加")
        if held and line not in self.store_notices:
            self.store_notices.append(line)
        if store.basis.unsaved is not None and found:
            why = access_problem(store.basis.unsaved)
            why = READ_ONLY if why is None or why.startswith(UNREADABLE) else why
            line = (f"标准答复：按现行规则复核已存答复的结果无法保存到 {STANDARD_FILE}（{why}）。本次运行照复核结果使用"
                    "（依据了只给部分人看的文档的答复暂停使用），每次启动都要重新复核")
            if line not in self.store_notices:
                self.store_notices.append(line)

    def _judged_store(self) -> Any:
        """`standard_store`, its stored answers judged (`_check_stored_standard`) before any is shown or changed."""
        store = self.standard_store
        self._check_stored_standard(store)
        return store

    def _visible_standard(self, answer_id: str, actor: Principal, verb: str) -> None:
        """Refuse a standard answer the actor may not read (`StandardAnswers.readable_ids`: its audience and every
        document it is held for; review 333) as an unknown id (no hint it exists), with a refused audit row as
        `delete_document` writes: the trail shows who tried, the answer stays unnamed to them."""
        store = self.standard_store
        store.get(answer_id)  # an unknown id: the store's own refusal
        if answer_id not in store.readable_ids(actor.readable):
            self._audit(actor, "refused", f"standard.{verb} {answer_id}", "refused", "受众不可见")
            raise StandardAnswerError(f"没有编号为 {answer_id} 的标准答复")
