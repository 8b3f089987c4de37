"""删除文档: what a delete takes with it (`delete_preview`); the delete is `DocumentActions.delete_document`.

A delete removes every version of the document, its recorded version history (`HistoryActions`), and holds the
standard answers resting on it (`StandardReview._hold_standard_answers`): they are not served until HR checks
them. The page's confirmation and notice said none of that (review 61, s6): `delete_preview` names the versions
and the standard answers the delete would hold, only those the actor may read. Split from `facade.documents`.
"""

from __future__ import annotations

from typing import Any

from ..documents.catalog import visible_to
from ..errors import StoreDamaged
from ..insights.standard_versions import resting_on
from ..types import DeletePreview, DocumentInfo, Principal
from .standard_review import StandardReview
from .stores import STANDARD_FILE, feature_store


class DocumentDeletion(StandardReview):
    """Mixin of `Assistant` (through `DocumentActions`): say before a delete what goes with it."""

    catalog: Any
    indexer: Any

    def delete_preview(self, doc_id: str, *, actor: Principal | None = None) -> DeletePreview:
        """What `delete_document` would take with it: how many versions (the history goes too) and the standard
        answers it would hold, named by their questions, only those whose audience the actor reads. Nothing is
        changed; a document the actor reads no version of previews as nothing (as its delete answers)."""
        actor = self._acting(actor, "documents.manage")
        versions = self.catalog.versions(doc_id)
        readable = [v for v in versions if visible_to(v.audience, actor.readable)]
        if not readable:
            return DeletePreview(doc_id)
        try:
            held = self._would_hold(doc_id, versions)
        except StoreDamaged as damage:  # the delete itself notes it; the question names what it can
            self._note_damage(damage)
            held = []
        if held:  # the ones the actor may read: their audience and every document one is held for (review 336)
            with feature_store(STANDARD_FILE):
                shown = self.standard_store.readable_ids(actor.readable)
            held = [e for e in held if e.id in shown]
        return DeletePreview(doc_id, len(readable), [e.question for e in held])

    def _would_hold(self, doc_id: str, versions: list[DocumentInfo]) -> list[Any]:
        """The standard answers `_hold_standard_answers` would hold if `doc_id` were deleted now: the same reading
        (`_deletion_inputs`) and the same rule (`resting_on`), holding nothing."""
        if not self._standard_stored():
            return []
        with feature_store(STANDARD_FILE):
            store = self.standard_store
            entries = store.list()
            titles, live, lost = self._deletion_inputs(
                doc_id, versions, entries, self._deleted_basis(doc_id))
            resting, _ = resting_on(entries, store.recorded_for(doc_id), doc_id, titles, live, lost)
        return [e for e in entries if e.id in resting]
