"""The versions the documents page shows of a document: the next one coming, every scheduled one that will take
effect, the history, and the chunk preview. Split from `facade.documents` (kept under the 400-line limit).

"Will take effect" is read from `documents.standing.effect_by_day` (through `documents.taking_effect`): a scheduled
version another one dated the same day replaces before it is ever in effect is not shown as coming.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ..documents.catalog import office_today, versions_in_effect, visible_to
from ..documents.standing import effect_by_day, scheduled
from ..documents.taking_effect import taking_effect
from ..errors import StoreDamaged
from ..types import Chunk, DocumentInfo, Principal
from .core import FacadeCore
from .stores import STANDARD_FILE, feature_store


class VersionViews(FacadeCore):
    """Mixin of `Assistant` (through `DocumentActions`): what the documents page lists of each document's versions."""

    def _readable_by(self, actor: Principal, audience: Sequence[str]) -> bool:
        """May `actor` read a version or chunk kept for `audience` (the documents page's one test)."""
        return visible_to(audience, actor.readable)

    def library_generation(self, *, actor: Principal | None = None) -> str:
        """A token every upload, delete or audience change the actor can see moves, and a change to the settings or the
        standard answers the actor is served: a page keeps it beside a search
        result it shows again, and knows the result is out of date when it moved (review 373 #1: 检索测试 showed a
        deleted clause). A change the actor may not read moves nothing (review 375 #6: the catalog's own counter
        told HR that a managers-only policy had just been uploaded, and dropped a result still current)."""
        actor = self._acting(actor, "ask")
        seen = [(v.doc_id, v.version, v.audience, v.effective_date or "") for v in self.catalog.live_versions()
                if self._readable_by(actor, v.audience)]
        # what else a search's result or the answer chat gives turns on (review 384 #3): the settings in force (取前
        # 1 块 beside 命中 2 块), and the standard answers the actor is served (chat now answers with one)
        try:
            with feature_store(STANDARD_FILE):
                store = self.standard_store
                held, readable = set(store.holds()), store.readable_ids(actor.readable)  # the store's own filter
                answers = [(e.id, e.question, tuple(e.variants), e.id in held) for e in store.list() if e.id in readable]
        except StoreDamaged:
            answers = ["damaged"]
        # a synonym saved changes what a search finds (review 395 #2), another replica's too (397 #6)
        words = sorted(self.thesaurus_in_force().custom.items())
        return hashlib.sha256(repr((seen, repr(self._settings), answers, words)).encode("utf-8")).hexdigest()

    def waiting_versions(self, *, actor: Principal | None = None) -> dict[str, DocumentInfo]:
        """For each document with a version in effect, the next version the actor may read that is scheduled to
        take its place (not one a same-day version replaces first): the list shows the version in effect, and HR
        should see that a change is coming."""
        actor = self._acting(actor, "documents.manage")
        today = office_today(self._settings.timezone)
        live = self.catalog.live_versions()
        in_effect = versions_in_effect(live, today)
        waiting = sorted((v for v in taking_effect(live, today) if v.doc_id in in_effect and scheduled(v, today)
                          and self._readable_by(actor, v.audience)), key=lambda v: (v.effective_date, v.version))
        first: dict[str, DocumentInfo] = {}
        for version in waiting:
            first.setdefault(version.doc_id, version)
        return first

    def scheduled_versions(self, *, actor: Principal | None = None) -> dict[str, list[DocumentInfo]]:
        """For each document, every scheduled version the actor may read that will take effect, in the order they
        do (`waiting_versions` names the first only: a correction dated before a wrong version still to come hid it).
        A version another one dated the same day replaces before it is ever in effect is left out."""
        actor = self._acting(actor, "documents.manage")
        today = office_today(self._settings.timezone)
        out: dict[str, list[DocumentInfo]] = {}
        for _, in_effect in effect_by_day(self.catalog.live_versions(), today)[1:]:
            for v in in_effect:
                if scheduled(v, today) and self._readable_by(actor, v.audience) and v not in out.get(v.doc_id, []):
                    out.setdefault(v.doc_id, []).append(v)
        return out

    def document_versions(self, doc_id: str, *, actor: Principal | None = None) -> list[DocumentInfo]:
        """Every version of a document the actor may read, oldest first, with its status."""
        actor = self._acting(actor, "documents.manage")
        return [v for v in self.catalog.versions(doc_id) if self._readable_by(actor, v.audience)]

    def document_chunks(self, doc_id: str, *, actor: Principal | None = None) -> list[Chunk]:
        """The stored chunks the actor may read of a document's version in effect and the scheduled ones that will
        take effect (`taking_effect`: not one a same-day version replaces before its day), in order."""
        actor = self._acting(actor, "documents.manage")
        today = office_today(self._settings.timezone)
        live = [v for v in self.catalog.live_versions() if v.doc_id == doc_id]
        shown = {v.version for v in taking_effect(live, today)}
        return [c for c in self.catalog.chunks_of(doc_id) if c.version in shown and self._readable_by(actor, c.audience)]
