"""Document actions: upload, estimate, versions, audiences, delete, samples, re-index.

The write path itself lives in `search.indexer`; this mixin validates the request
and forwards. Attributes it uses (`catalog`, `indexer`, `_settings`) are set up by
`Assistant.__init__`. Every method takes the acting `Principal` (`actor=`; None is the
desktop default) and checks it: managing documents is for HR, and HR sees, previews,
replaces and deletes only the documents whose audience it may read.

Bounded work: a file is refused above `max_chunks_per_file`; `estimate_ingest` says how
many chunks and about how long before anything is written (the page asks above
`ingest_confirm_seconds`), and `ingest_bytes(cancel=...)` stops between embedding batches
with nothing written. The estimate's prepared document is kept briefly, so the ingest
that follows does not parse the file twice. The estimate runs no OCR (`reading.deferring_ocr`): it counts the
scanned pages, adds their time and says how many; the ingest reads them with its progress bar and cancel.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..documents.audience_names import AUDIENCE_LABELS, audience_names
from ..documents.bounds import IngestEstimate, as_cancel, check_cancel
from ..documents.catalog import office_today, utc_stamp, versions_in_effect, visible_to
from ..documents.doc_ids import NameTaken, check_identity, check_twin, given_doc_id
from ..documents.ocr import reporting_pages
from ..documents.prepare import PreparedDocument, effective_day, prepare
from ..documents.reading import DEFERRED_LINE, OCR_CHUNKS_PER_PAGE, OCR_SECONDS_PER_PAGE, deferred_plan, deferring_ocr
from ..documents.standing import scheduled
from ..errors import DocumentIdConflict, IngestError, PermissionDenied, RagError
from ..search.after_switch import LEFTOVER_NOTE, LeftOver, interrupted_live, mark_live, went_live
from ..search.indexer import refuse_unreplaceable
from ..search.vector_store import VectorCheck
from ..types import Chunk, DocumentInfo, IngestReport, Principal
from .audience_preview import checked_preview
from .deletion import DocumentDeletion
from .reindex import Reindexing
from .replaced import REPLACED_DIR, replaced_dir, said_replaced
from .samples import SAMPLE_PACK, SAMPLES_DIR, SYSTEM, SampleSeeding  # noqa: F401 (their old home)
from .server_files import ServerFiles
from .upload_input import audience_of, displayable_name, readers_change, upload_detail  # noqa: F401 (displayable_name: its old home)
from .version_views import VersionViews

Progress = Callable[[str, float], None]
PREPARED_KEPT = 4  # estimates whose prepared documents wait for their ingest
AFTER_WRITE_FAILED = ("新版本已生效，但导入后的核对（依据它的标准答复、重复内容）出错没有完成；"
                      "请到“标准答复”页检查依据这份文档的答复，仍有问题请联系管理员查看日志")
_log = logging.getLogger(__name__)






class DocumentActions(SampleSeeding, ServerFiles, Reindexing, DocumentDeletion, VersionViews):
    """Mixin of `Assistant`: everything the documents page and `docs` commands do."""

    AUDIENCE_LABELS = AUDIENCE_LABELS  # label -> the Chinese name the pages show (owned by documents.audience_names)
    audience_names = staticmethod(audience_names)  # labels as people read them, joined with 、 (HR、管理者)

    def ingest_bytes(
        self,
        data: bytes,
        filename: str,
        *,
        audience: Sequence[str] | None = ("all",),
        doc_id: str | None = None,
        effective_date: str | None = None,
        redact_disabled: Sequence[str] = (),
        progress: Progress | None = None,
        cancel: Any = None,
        actor: Principal | None = None,
    ) -> IngestReport:
        """Index one file as a new version; a refused file leaves the store unchanged (one audit row).

        `cancel` (a callable returning True, or a threading.Event) is checked between embedding
        batches; a cancelled ingest is reported as refused and leaves nothing written. `audience`: None (not
        given) means 全体员工; an explicit empty list is refused, never widened to everyone (`audience_of`).
        """
        actor = self._acting(actor, "documents.manage")
        filename = displayable_name(filename)
        shown = self._shown_name(filename)  # the audit names the file as the report does: personal data masked
        if refusal := self._audience_refusal(actor, audience):  # nothing written: HR could neither see nor undo it
            self._audit(actor, "refused", f"document.upload {shown}", "refused", refusal)
            return IngestReport(filename=shown, status="refused", audience=audience_of(audience), error=f"{shown}: {refusal}")
        try:
            report = self._ingest(
                data, filename, audience=audience, doc_id=doc_id, effective_date=effective_date,
                redact_disabled=redact_disabled, progress=progress, cancel=cancel,
                reader=actor,
            )
        except PermissionDenied as exc:  # a live version of this document is not the actor's to replace
            self._audit(actor, "refused", f"document.upload {shown}", "refused", getattr(exc, "audit", str(exc)))
            return IngestReport(filename=shown, status="refused", audience=audience_of(audience), error=f"{shown}: {exc}")
        except BaseException as exc:  # Ctrl-C, or the page stopped mid-run (取消导入)
            if live := went_live(exc):  # the switch was done: the version answers, the steps after it were finished
                self._audit(actor, "document.upload", shown, "ok", f"{live[0]} v{live[1]} 已索引；{interrupted_live(*live)}")
            else:  # the indexer removed the pending version
                self._audit(actor, "document.upload", shown, "failed", "导入被中断，未写入任何内容")
            raise
        report.warnings.extend(self._after_write(lambda: self._same_content(report, actor)))  # stored all the same
        detail = upload_detail(report, self.catalog.versions(report.doc_id) if report.ok else [], redact_disabled,
                               office_today(self._settings.timezone))
        self._audit(actor, "document.upload", shown, "ok" if report.ok else "failed", detail)
        return report

    def estimate_ingest(
        self,
        data: bytes,
        filename: str,
        *,
        audience: Sequence[str] | None = ("all",),
        doc_id: str | None = None,
        effective_date: str | None = None,
        redact_disabled: Sequence[str] = (),
        actor: Principal | None = None,
    ) -> IngestEstimate:
        """Parse and chunk a file without writing anything: its chunk count and about how long the ingest takes.

        `error` is the reason the ingest would refuse it (too many chunks, unreadable, a document the
        actor may not replace). The seconds are chunks × `ingest_seconds_per_chunk`; 0 when the file
        repeats the current version.
        """
        actor = self._acting(actor, "documents.manage")
        filename = displayable_name(filename)
        audience_t = audience_of(audience)
        if refusal := self._audience_refusal(actor, audience_t):
            return IngestEstimate(filename=self._shown_name(filename), error=f"{self._shown_name(filename)}: {refusal}")
        try:
            effective_date = effective_day(effective_date, self._shown_name(filename))
            readable = lambda version: self._readable_by(actor, version.audience)  # noqa: E731
            with deferring_ocr() as plan:  # OCR runs in the ingest, with its progress bar and cancel
                prepared = self._prepared(data, filename, audience_t, doc_id, redact_disabled, keep=True, may_read=readable)
            refuse_unreplaceable(self.catalog, prepared.doc_id, readable, office_today(self._settings.timezone))
        except IngestError as exc:
            return IngestEstimate(filename=exc.filename, error=str(exc))
        except RagError as exc:  # PermissionDenied: a document the actor may not replace
            return IngestEstimate(filename=self._shown_name(filename), error=f"{self._shown_name(filename)}: {exc}")
        today = office_today(self._settings.timezone)
        live = [v for v in self.catalog.versions(prepared.doc_id) if v.status == "current"]
        audience_t, change = readers_change(audience, audience_t, live, prepared.doc_id, effective_date, today,
                                            asking=True)  # as the ingest will decide
        unchanged = self.indexer.current_match(prepared, audience_t, effective_date, today) is not None
        change = [] if unchanged else change
        per_chunk = self._settings.ingest_seconds_per_chunk
        chunks = sum(1 for c in prepared.chunks if c.text.replace(DEFERRED_LINE, "").strip())  # not the stand-ins
        ocr = len(plan.pages)
        seconds = 0.0 if unchanged else chunks * per_chunk + ocr * (OCR_SECONDS_PER_PAGE + OCR_CHUNKS_PER_PAGE * per_chunk)
        return IngestEstimate(
            filename=prepared.parsed.source, doc_id=prepared.doc_id, chunk_count=chunks,
            seconds=round(seconds, 1), unchanged=unchanged, ocr_pages=ocr, ocr_skipped=plan.skipped,
            needs_confirmation=seconds > self._settings.ingest_confirm_seconds or bool(plan.skipped),
            readers_change="\n".join(change),
        )

    def _prepared(
        self, data: bytes, filename: str, audience: tuple[str, ...], doc_id: str | None,
        redact_disabled: Sequence[str], *, keep: bool = False, step: Progress | None = None,
        may_read: Callable[[DocumentInfo], bool] | None = None, cancel: Any = None,
    ) -> PreparedDocument:
        """`prepare` with a few results kept: an estimate's document is taken by the ingest that follows (not
        one whose OCR was deferred); `cancel` is checked between OCR'd pages.

        `may_read` (the actor's audiences) keeps the file name of a version the actor may not read out of the
        refusal of a name that maps onto an existing document's id."""
        s = self._settings
        doc_id = given_doc_id(doc_id)  # blank (a zero-width space, spaces): the id comes from the file name
        key = (
            hashlib.sha256(bytes(data)).hexdigest(), filename, doc_id, audience, tuple(sorted(redact_disabled)),
            s.chunk_size, s.chunk_overlap, s.redact_pii, s.max_chunks_per_file, s.max_file_bytes,
        )
        memo = self.__dict__.setdefault("_prepared_memo", OrderedDict())
        lock = self.__dict__.setdefault("_prepared_lock", threading.Lock())
        with lock:
            kept = memo.pop(key, None)
        if kept is not None:
            self._recheck_identity(kept, may_read, typed=bool(doc_id))  # the library may have changed since
            now = utc_stamp()
            return replace(kept, chunks=[replace(c, ingested_at=now) for c in kept.chunks])
        step = step or (lambda stage, frac: None)

        def page_read(done: int, total: int) -> None:
            check_cancel(as_cancel(cancel), self._shown_name(filename))
            step(f"OCR 识别扫描页 {done}/{total}", 0.05 + 0.15 * done / total)

        with reporting_pages(page_read):
            prepared = prepare(
                data, filename, s, doc_id=doc_id, audience=audience,
                redact_disabled=frozenset(redact_disabled), name_keys=self.indexer.name_keys,
                **self._identity_lookups(may_read),
            )
        if keep and not getattr(deferred_plan(), "pages", None):
            with lock:
                memo[key] = prepared
                while len(memo) > PREPARED_KEPT:
                    memo.popitem(last=False)
        return prepared

    def _identity_lookups(self, may_read: Callable[[DocumentInfo], bool] | None) -> dict[str, Callable[..., Any]]:
        """What `check_identity` reads of the library: file names, the ones only unreadable versions have, the ids."""
        def hidden_of(known: str) -> set[str]:
            if may_read is None:
                return set()
            versions = self.catalog.versions(known)
            return {v.source for v in versions if not may_read(v)} - {v.source for v in versions if may_read(v)}
        return {
            "sources_of": lambda known: [v.source for v in self.catalog.versions(known)],
            "hidden_of": hidden_of,
            "doc_ids": lambda: {v.doc_id for v in self.catalog.live_versions()},
        }

    def _recheck_identity(self, prepared: PreparedDocument, may_read: Callable[[DocumentInfo], bool] | None, *,
                          typed: bool = False) -> None:
        """`check_identity` against the library as it is now: a file prepared earlier (an estimate's, or one that
        waited for the writer lock while another upload of a clashing name was written) is refused as it would be now.
        `typed`: the uploader gave the id; only its case/width twin is looked for (another upload may have made one
        since the estimate: two live twins kept answering, review rev-own1)."""
        look = self._identity_lookups(may_read)
        if typed:
            check_twin(prepared.doc_id, prepared.parsed.source, look["sources_of"], look["hidden_of"], look["doc_ids"],
                       typed=True)
            return
        check_identity(prepared.doc_id, prepared.parsed.source, look["sources_of"], look["hidden_of"],
                       prepared.name_key, self.indexer.name_keys.of, look["doc_ids"])

    def _ingest(
        self,
        data: bytes,
        filename: str,
        *,
        audience: Sequence[str] | None = ("all",),
        doc_id: str | None = None,
        effective_date: str | None = None,
        redact_disabled: Sequence[str] = (),
        progress: Progress | None = None,
        cancel: Any = None,
        reader: Principal,
    ) -> IngestReport:
        """Prepare and write one file; refusals become reports, PermissionDenied (`reader` may not replace) is raised."""
        may_replace = lambda version: self._readable_by(reader, version.audience)  # noqa: E731
        audience_t = audience_of(audience)
        step = progress or (lambda stage, frac: None)
        prepared: PreparedDocument | None = None
        known: int | None = None  # the newest version number before this write: a current one above it is this write's
        try:
            step("解析与切块", 0.05)
            effective_date = effective_day(effective_date, self._shown_name(filename))
            prepared = self._prepared(data, filename, audience_t, doc_id, redact_disabled, step=step, may_read=may_replace,
                                      cancel=cancel)
            step("解析与切块", 0.2)
            today = office_today(self._settings.timezone)
            versions = self.catalog.versions(prepared.doc_id)
            known = max((v.version for v in versions), default=0)
            live = [v for v in versions if v.status == "current"]
            replaced = versions_in_effect(live, today).get(prepared.doc_id)
            readers, change = readers_change(audience, audience_t, live, prepared.doc_id, effective_date, today,
                                             asking=False)
            if readers != audience_t:  # not given: as it was
                audience_t = readers
                prepared = replace(prepared, chunks=[replace(c, audience=audience_t) for c in prepared.chunks])
            basis = self._standard_basis(replaced)  # StandardReview: read before retired
            with said_replaced():  # a restore swapped the data dir under this process: one line, not Chroma's English
                report = self.indexer.write(
                    prepared, audience_t, effective_date, step, may_replace=may_replace, cancel=as_cancel(cancel),
                    today=today, timezone=self._settings.timezone,
                    guard=lambda: self._recheck_identity(prepared, may_replace, typed=bool(doc_id)),
                )
            reading = prepared.parsed.reading  # how the file was read: tables, OCR'd pages, furniture
            narrower = change if report.status == "indexed" else []
            held = self._after_write(lambda: self._held_by_version(report, prepared, replaced, basis, reader))
            return replace(report, reading=reading, warnings=[*reading.notes, *report.warnings, *narrower, *held])
        except DocumentIdConflict as exc:
            return IngestReport(filename=exc.filename, status="refused", error=str(exc), conflict_doc_id=exc.doc_id)
        except IngestError as exc:  # IngestCancelled included: the pending version is already gone
            return IngestReport(filename=exc.filename, status="refused", error=str(exc))
        except PermissionDenied:
            raise
        except RagError as exc:
            shown = self._shown_name(filename)
            return IngestReport(filename=shown, status="refused", error=f"{shown}: {exc}")
        except BaseException as exc:  # Ctrl-C, the page stopping the run: before the switch nothing stays written
            if prepared is not None and known is not None and (live_now := self._this_write_live(prepared, known)):
                mark_live(exc, prepared.doc_id, live_now)
            raise

    def _this_write_live(self, prepared: PreparedDocument, known: int) -> int | None:
        """The version this write made current (numbered above `known`, with its text), or None: after an interrupt,
        whether the switch had already happened (the version answers) or the pending version was taken out."""
        try:
            return next((v.version for v in self.catalog.versions(prepared.doc_id) if v.version > known
                         and v.status == "current" and v.content_hash == prepared.content_hash), None)
        except Exception:  # noqa: BLE001 - the interrupt is raised all the same
            _log.warning("after an interrupted upload: could not read its versions", exc_info=True)
            return None

    def _held_by_version(self, report: IngestReport, prepared: PreparedDocument, replaced: DocumentInfo | None,
                         basis: list[Chunk], reader: Principal) -> list[str]:
        """A new version holds the standard answers it no longer supports (StandardReview): at once when it is in
        effect now, from its effective day when scheduled (nothing runs on that day, so the check is made now; until
        then they are served, as the version it replaces is). A scheduled version an immediate one retired, or one
        dated the same day that replaced it, takes its holds with it (`_keep_pending_holds`)."""
        if report.status != "indexed":
            return []
        self._keep_pending_holds(prepared.doc_id)
        if replaced is None or not basis:
            return []
        new = next((v for v in self.catalog.versions(prepared.doc_id) if v.version == report.version), None)
        if new is None or new.status != "current":  # another process's newer version won meanwhile
            return []
        return self._hold_outdated_standard(new, prepared.chunks, replaced, basis, reader)

    @staticmethod
    def _after_write(check: Callable[[], list[str]]) -> list[str]:
        """A check made once the new version may be live: its failure is a warning in the report, never an error
        (the page and the audit would say nothing was written while the new version answers)."""
        try:
            return check()
        except Exception:  # noqa: BLE001 - logged; the report says what to check
            _log.warning("a check after the write failed", exc_info=True)
            return [AFTER_WRITE_FAILED]

    def delete_document(self, doc_id: str, *, actor: Principal | None = None) -> int:
        """Remove every version of a document from every store; returns the chunks removed.

        Refused when a version that stands (in effect, scheduled or pending: `refuse_unreplaceable`) is not the
        actor's: deleting it would take a policy away from its readers. Old versions no reader sees any more (retired,
        or replaced on a scheduled day) do not block HR's delete of the document it sees: deleting reveals nothing
        of their text, and HR's page lists the document and offers its delete. A document the actor reads no version
        of is answered as an unknown id (0, nothing removed; the audit says why): refusing it confirmed the id."""
        actor = self._acting(actor, "documents.manage")
        versions: list[DocumentInfo] = []
        basis: list[Chunk] = []
        readable = lambda v: self._readable_by(actor, v.audience)  # noqa: E731

        def guard() -> None:  # under the writer lock: a version another writer stores meanwhile is checked too
            versions[:] = self.catalog.versions(doc_id)
            if versions and not any(readable(v) for v in versions):
                raise NameTaken(doc_id)
            refuse_unreplaceable(self.catalog, doc_id, readable, office_today(self._settings.timezone), deleting=True)
            basis[:] = self._deleted_basis(doc_id)  # StandardReview: read before removed

        leftover = ""
        try:
            with said_replaced():
                removed = self.indexer.delete_document(doc_id, guard=guard,
                                                       today=office_today(self._settings.timezone))
        except LeftOver as left:  # the catalog's delete committed: audit and hold, then say what was left
            if replaced_dir(left.cause):  # a swapped data dir: the delete went to renamed files, the live one kept it
                raise RagError(REPLACED_DIR) from left.cause
            removed, leftover = left.removed, LEFTOVER_NOTE
            if leftover not in self.store_notices:  # the catalog marks the orphans: the next start drops them
                self.store_notices.append(leftover)
        except NameTaken:  # as a made-up id: 0
            self._audit(actor, "refused", f"document.delete {doc_id}", "refused", "受众不可见：看不到它的任何版本，按没有这个文档答复")
            return 0
        except PermissionDenied as exc:  # `refuse_unreplaceable`'s words: what blocks, and who can act
            self._audit(actor, "refused", f"document.delete {doc_id}", "refused", "受众不可见")
            raise PermissionDenied(str(exc)) from None
        held = self._hold_standard_answers(doc_id, versions, basis)  # StandardReview
        detail = f"{removed} 块" + (f"；{held} 条依据它的标准答复暂停使用，待复核" if held else "") + (f"；{leftover}" if leftover else "")
        self._audit(actor, "document.delete", doc_id, "ok" if versions else "failed", detail)
        return removed

    def list_documents(self, role: str | None = None, *, actor: Principal | None = None) -> list[DocumentInfo]:
        """Each document's version in effect today (scheduled ones marked) that the actor may read.

        `role` narrows further to one audience label (plus "all"), as a preview of what that audience sees.
        """
        actor = self._acting(actor, "documents.manage")
        role = checked_preview(role, self.catalog, actor.readable)  # a made-up label listed nothing, silently
        today = office_today(self._settings.timezone)
        live = self.catalog.live_versions()
        in_effect = versions_in_effect(live, today)  # chosen for everyone first, as search does
        out: dict[str, DocumentInfo] = {}
        for info in live:
            if not self._readable_by(actor, info.audience):
                continue
            if role is not None and not visible_to(info.audience, role):
                continue
            if scheduled(info, today):
                if info.doc_id not in out:
                    out[info.doc_id] = replace(info, status="scheduled")
                continue
            if in_effect.get(info.doc_id) is info:
                out[info.doc_id] = info
        return sorted(out.values(), key=lambda d: d.doc_id)

    def check_vectors(self, repair: bool = True, *, actor: Principal | None = None) -> VectorCheck:
        """Can every stored chunk still be found by vector search? Re-writes the ones that cannot."""
        self._acting(actor, "maintenance")
        return self.indexer.check_vectors(repair=repair)
