"""Rules a write or a delete checks against the versions of a document that stand, holding the writer lock.

Who may replace what (`refuse_unreplaceable`), whether a re-index read is still true (`refuse_stale`), and what
an upload report says of the scheduled versions it leaves (`waiting_note`, `scheduled_later`). Kept apart from the
indexer, which calls them under its locks.
"""

from __future__ import annotations

from collections.abc import Callable

from ..documents.catalog import Catalog, office_today
from ..documents.doc_ids import NameTaken
from ..documents.prepare import PreparedDocument
from ..documents.standing import effect_by_day, scheduled, standing_versions
from ..errors import PermissionDenied, RagError
from ..types import DocumentInfo

MayReplace = Callable[[DocumentInfo], bool]  # may the writer replace this existing version?


def refuse_unreplaceable(catalog: Catalog, doc_id: str, may_replace: MayReplace | None,
                         today: str | None = None, *, deleting: bool = False) -> None:
    """PermissionDenied when a version that stands (in effect on `today`, scheduled, or pending) is one the writer
    may not replace.

    A new version retires the old one: uploading over a document one cannot read would take it
    away from the people who can (HR's upload once retired the managers' only version). A version a scheduled
    one replaced on its day stays 'current' in the catalog, but no reader sees it and the documents list does not
    show it (`standing_versions`): it does not lock HR out of the 全体员工 version in effect.
    A document the writer may read no version of is not named (`NameTaken`: only that the name is taken); one the
    writer reads a version of is, with the reason: a version the writer cannot see, and who can act. Said as
    不面向你的受众 of a document HR's list shows for everyone (a hidden scheduled version blocked it), it contradicted
    what HR sees; when the hidden version is to take effect is not said (review 326).
    """
    if may_replace is None:
        return
    day = today or office_today()
    versions = catalog.versions(doc_id)
    live = [v for v in versions if v.status == "current"]
    blocking = [*standing_versions(live, day), *(v for v in versions if v.status == "pending")]
    hidden = [v for v in blocking if not may_replace(v)]
    if not hidden:
        return
    if not any(may_replace(v) for v in versions):
        raise NameTaken(doc_id)
    doing = "删除这份文档" if deleting else "上传它的新版本"
    raise PermissionDenied(f"没有权限：文档 {doc_id} 有你看不到的版本（不面向你的受众），只有系统管理员可以{doing}"
                           + ("" if deleting else "。如果这是另一份文件，请改名或指定新的文档ID后再上传"))


def waiting_note(catalog: Catalog, matched: DocumentInfo, today: str) -> str:
    """"；vN 仍将于 D 生效" for each scheduled version after `matched`: re-uploading the file in effect leaves it."""
    coming = [v for v in catalog.versions(matched.doc_id) if v.status == "current" and v.version != matched.version
              and scheduled(v, today)]
    return "".join(f"；v{v.version} 仍将于 {v.effective_date} 生效" for v in coming)


def refuse_stale(catalog: Catalog, read: DocumentInfo, known: set[int]) -> None:
    """RagError when `read` is no longer live, or a live version of its document is not one of `known`.

    Re-indexing reads the live versions, then cuts and writes them one by one; another process (a CLI
    ingest, a second app) may store a new version in between, and writing the old text over it would make
    the stale policy the newest. Call it holding the writer lock (`Indexer.write(guard=...)`): `known` is
    the versions read plus the ones this re-index wrote."""
    live = {v.version for v in catalog.versions(read.doc_id) if v.status == "current"}
    if read.version not in live or live - known:
        raise RagError("文档在重建期间被更新，已跳过，请再重建一次")


def scheduled_later(catalog: Catalog, written: DocumentInfo, today: str) -> list[str]:
    """For a version scheduled for a day (`written`): each scheduled version that takes effect after that day
    and so replaces it then ("排期中的 v2（原定 D 生效）届时会取代这一版"). A correction dated earlier than the
    wrong version it corrects was silently replaced by it on the later day."""
    live = [v for v in catalog.versions(written.doc_id) if v.status == "current"]
    coming = {v.version: v for _, day in effect_by_day(live, today) for v in day
              if v.version != written.version and (v.effective_date or "") > (written.effective_date or "")}
    return [f"排期中的 v{v.version}（原定 {v.effective_date} 生效）届时会取代这一版：如果它已作废，"
            f"请把这一版再上传一次并把生效日期设为 {v.effective_date}" for _, v in sorted(coming.items())]


def repeats(catalog: Catalog, known: DocumentInfo, prepared: PreparedDocument, audience: tuple[str, ...],
            effective_date: str | None) -> bool:
    """The upload is `known` again: the same chunk texts, audience and date, and the same title, file name and
    headings, which the list, the index text and citations show but the content hash leaves out (review 347: a
    Word file's corrected 标题 was reported 内容与当前版本完全相同 and the old title stayed everywhere)."""
    if (known.content_hash, known.audience, known.effective_date) != (prepared.content_hash, audience, effective_date):
        return False
    if (known.title, known.source) != (prepared.parsed.title, prepared.parsed.source):
        return False
    return [c.section for c in catalog.chunks_of(known.doc_id, known.version)] == [c.section for c in prepared.chunks]
