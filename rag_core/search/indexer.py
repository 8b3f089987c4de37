"""The write path: keep the catalog, the vectors, the keyword index and the centroid in step.

A new version is written as *pending*, embedded and stored, then made
*current*, and only then are the older versions retired; a crash at any point
leaves either the old or the new version in effect, never a mix
(`recover_pending` drops what a crash left half-written on the next start).
One lock serialises writers in this process, and the catalog's `writer` lock
serialises them across processes (a CLI ingest while the app ingests); the
switch to current reads what else is current in the same transaction.

A write checks `cancel` between embedding batches; cancelling (like any error or
interrupt) removes the pending version from every store, so nothing is half-written.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress

from ..documents import write_lock
from ..documents.bounds import Cancel, check_cancel
from ..documents.catalog import Catalog, office_today, versions_in_effect
from ..documents.name_keys import NameKeys
from ..documents.prepare import PreparedDocument, index_text, with_version
from ..documents.standing import scheduled
from ..documents.taking_effect import replaced_on_their_day
from ..errors import IngestError, RagError
from ..storage.library_evidence import LEFT_OVER
from ..types import Chunk, DocumentInfo, IngestReport
from .after_switch import LeftOver, run_each, unfinished
from .backfill import backfill_rows, backfill_second, backfill_sentences  # noqa: F401 (their old home)
from .centroid import CorpusCentroid
from .disk_full import DISK_FULL, disk_full
from .embedding import CachedEmbedder
from .keyword_index import KeywordIndex
from .sentence_index import SecondModel, SentenceIndex, second_chunk_text, vector_rows
from .throughput import throughput_label
from .unreachable import unreachable_warning
from .vector_store import ChromaVectorStore, VectorCheck
from .version_rules import MayReplace, refuse_stale, refuse_unreplaceable, repeats, scheduled_later, waiting_note  # noqa: F401

# a delete refused whole by a full disk: nothing was deleted, and the page says so
DELETE_DISK_FULL = "磁盘空间已满，文档没有删除（它仍在文档列表里，也仍会被检索到）；请腾出磁盘空间后重试"
Progress = Callable[[str, float], None]


def replaced_same_day(catalog: Catalog, written: DocumentInfo, today: str) -> list[str]:
    """For a version scheduled for a day (`written`): the scheduled version dated that same day it replaces before it
    ever takes effect (`replaced_on_their_day`; the one that would have, the highest number below it): the list and
    the history no longer show it as coming, and the upload says so."""
    live = [v for v in catalog.versions(written.doc_id) if v.status == "current"]
    gone = [v for v in replaced_on_their_day(live, today)
            if v.effective_date == written.effective_date and v.version < written.version]
    return [f"排期中的 v{v.version}（原定 {v.effective_date} 生效）与这一版同日生效，将被这一版取代，不会生效"
            for v in sorted(gone, key=lambda v: v.version)[-1:]]


SECOND_SLICE = 256  # chunks per second-model call, so a cancel is seen between slices
WAITING = "等待另一个导入、删除或备份完成"  # whoever holds the catalog writer lock
VERSION_ATTEMPTS = 5
_log = logging.getLogger(__name__)


class Indexer:
    """Writes and removes document versions across every store; safe to share between threads."""

    def __init__(
        self,
        catalog: Catalog,
        embedder: CachedEmbedder,
        vectors: ChromaVectorStore,
        keywords: KeywordIndex,
        centroid: CorpusCentroid,
        sentences: SentenceIndex,
        second: SecondModel | None = None,
    ):
        self.catalog = catalog
        self.embedder = embedder
        self.vectors = vectors
        self.keywords = keywords
        self.centroid = centroid
        self.sentences = sentences
        self.second = second
        self.lock = threading.RLock()
        self._exclusive = False  # this thread holds the data dir's writer lock (across processes), see `_locked`
        self.name_keys = NameKeys(catalog)  # which original file each document's versions came from

    def fail_point(self, name: str) -> None:
        """Hook for tests that simulate a crash mid-write; does nothing in production."""

    def write(
        self, prepared: PreparedDocument, audience: tuple[str, ...], effective_date: str | None, step: Progress,
        *, may_replace: MayReplace | None = None, cancel: Cancel | None = None, keep_scheduled: bool = False,
        today: str | None = None, timezone: str | None = None, guard: Callable[[], None] | None = None,
    ) -> IngestReport:
        """Store `prepared` as the next version of its document (or report it unchanged).

        `may_replace` refuses (PermissionDenied) when a live version of the document is one the
        writer may not replace; `cancel` is checked between embedding batches (IngestCancelled).
        `keep_scheduled` (re-indexing): a version in effect leaves scheduled versions for their own rewrite.
        `today` is the office's day (`office_today` of `Settings.timezone`), which decides what is scheduled;
        `timezone` is that zone, in which a stored version's `ingested_at` says whether it was scheduled.
        `guard` is called holding the data dir's lock, before anything is written, and may raise to refuse
        (re-indexing: `refuse_stale`, what was read outside the lock may be out of date by now).
        """
        def check() -> None:
            check_cancel(cancel, prepared.parsed.source)

        with self._locked(step, check):
            if guard is not None:
                guard()
            return self._write(prepared, audience, effective_date, step, may_replace, check, keep_scheduled,
                               today or office_today(timezone), timezone)

    def retire(self, old: DocumentInfo) -> None:
        """Take one version out of every store (re-indexing: the scheduled version its re-cut copy replaces)."""
        with self.lock, self.catalog.writer.hold():
            self._retire(old)

    @contextmanager
    def _locked(self, step: Progress, check: Callable[[], None]):
        """This process's lock, then the data dir's; waiting says so and can be cancelled."""
        told = False
        while not self.lock.acquire(timeout=0.2):
            if not told:
                step(WAITING, 0.2)
                told = True
            check()
        try:
            with self.catalog.writer.hold(waiting=lambda: step(WAITING, 0.2), cancel=check):
                self._exclusive = write_lock.fcntl is not None  # no other writer anywhere until released
                try:
                    yield
                finally:
                    self._exclusive = False
        finally:
            self.lock.release()

    def current_match(
        self, prepared: PreparedDocument, audience: tuple[str, ...], effective_date: str | None, today: str | None = None
    ) -> DocumentInfo | None:
        """The version in effect or the newest live one when this upload repeats it exactly (`version_rules.repeats`).

        Comparing with the newest only made re-uploading the file in effect a new immediate version, which
        cancelled the scheduled one."""
        live = [v for v in self.catalog.versions(prepared.doc_id) if v.status == "current"]
        in_effect = versions_in_effect(live, today or office_today()).get(prepared.doc_id)
        for known in [v for v in (live[-1] if live else None, in_effect) if v is not None]:
            if repeats(self.catalog, known, prepared, audience, effective_date):
                return known
        return None

    def _write(
        self, prepared: PreparedDocument, audience: tuple[str, ...], effective_date: str | None, step: Progress,
        may_replace: MayReplace | None, check: Callable[[], None], keep_scheduled: bool, today: str,
        timezone: str | None = None,
    ) -> IngestReport:
        doc_id = prepared.doc_id
        refuse_unreplaceable(self.catalog, doc_id, may_replace, today)
        newest = self.current_match(prepared, audience, effective_date, today)
        if newest is not None:
            healed = self._retire_superseded(doc_id, timezone)
            self.name_keys.add(doc_id, prepared.name_key)
            step("完成", 1.0)
            return IngestReport(
                filename=prepared.parsed.source, status="unchanged", doc_id=doc_id, version=newest.version,
                chunk_count=newest.chunk_count, audience=audience, redactions=prepared.redactions,
                warnings=["内容与当前版本完全相同，未生成新版本" + waiting_note(self.catalog, newest, today), *healed],
            )
        if self.vectors.server and self.vectors.stale:  # a server known down refuses before any embedding
            self.vectors.count()
        self._drop_leftovers(doc_id)
        try:
            info, chunks = self._insert_pending(prepared, audience, effective_date)
        except Exception as exc:  # the catalog's transaction rolled back: nothing was written
            if disk_full(exc):
                raise IngestError(prepared.parsed.source, DISK_FULL) from exc
            raise
        version = info.version
        immediate = not effective_date or effective_date <= today

        def embedded(stage: str, start: float, span: float, unit: str):
            began = time.monotonic()

            def progress(done: int, total: int) -> None:
                step(throughput_label(stage, done, total, time.monotonic() - began, unit), start + span * done / total)
                check()  # between batches: the batch just embedded is cached, nothing else is kept

            return progress

        # 1) the new version was written as pending; 2) make it current; 3) retire the old one.
        try:
            check()
            vectors = self.embedder.embed_passages(
                [index_text(c) for c in chunks], progress=embedded("向量化", 0.2, 0.4, "段")
            )
            step("逐句向量化", 0.6)
            self.sentences.put(vector_rows(chunks, vectors, self._embed_sentences(embedded("逐句向量化", 0.6, 0.25, "句"))))
            if self.second is not None:
                step("第二模型向量化", 0.85)
                for start in range(0, len(chunks), SECOND_SLICE):
                    check()
                    self.second.index.put(self.second.rows(chunks[start : start + SECOND_SLICE]))
            check()
            step("写入索引", 0.9)
            unreachable = self.vectors.upsert(chunks, vectors)
            self.fail_point("after_vectors")
            check()  # the last moment a cancel is honoured: after the switch the version is live
            older, newer = self.catalog.switch_current(doc_id, version, supersedes=immediate, today=today)
        except BaseException as exc:
            self._discard(info, [c.chunk_id for c in chunks])
            if isinstance(exc, Exception) and disk_full(exc):  # the previous version keeps answering
                raise IngestError(prepared.parsed.source, DISK_FULL) from exc
            raise
        if keep_scheduled:
            older = [old for old in older if (old.effective_date or "") <= today]
        # the new version answers from here on: a step failing (a full disk) leaves the others to run (`after_switch`)
        undone = run_each([
            ("记录原始文件名", lambda: self.name_keys.add(doc_id, prepared.name_key)),
            ("关键词索引", lambda: self._add_keywords(chunks, prepared.tokens)),
            ("语料统计", lambda: self.centroid.add(vectors, audience)),
            *((f"停用旧版本 v{old.version}", lambda old=old: self._retire(old)) for old in older),
        ], f"{doc_id} v{version}")
        warnings = prepared.warnings + unreachable_warning(unreachable)
        if not immediate:  # the upload report says so: until then answers still come from the version in effect
            warnings.append(f"v{version} 将于 {effective_date} 生效，在此之前问答仍使用当前生效的版本")
            if not keep_scheduled:  # re-index: as it was
                warnings += scheduled_later(self.catalog, info, today) + replaced_same_day(self.catalog, info, today)
        warnings += [f"这一版立即生效并取代了所有旧版本，包括排期中的 v{old.version}（原定 {old.effective_date} 生效）："
                     "如果仍需要它，请重新上传并设好生效日期" for old in older if scheduled(old, today)]
        if newer is not None:  # only without the writer lock: another process's newer version won
            undone += run_each([(f"停用这一版 v{version}", lambda: self._retire(info))], f"{doc_id} v{version}")
            warnings.append(f"导入期间同一文档的更新版本 v{newer} 已经生效，这一版随即停用")
        warnings += unfinished(version, undone)
        # no progress call after the switch: the page's bar is where 取消导入 stops the run, and a stop here
        # would be reported as "nothing written" while the version is live (the caller's bar ends the file)
        return IngestReport(
            filename=prepared.parsed.source, status="indexed", doc_id=doc_id, version=version,
            chunk_count=len(chunks), audience=audience, redactions=prepared.redactions, warnings=warnings,
        )

    def _insert_pending(
        self, prepared: PreparedDocument, audience: tuple[str, ...], effective_date: str | None
    ) -> tuple[DocumentInfo, list[Chunk]]:
        """Write the next version as pending; a number another process took meanwhile is skipped."""
        for attempt in range(VERSION_ATTEMPTS):
            version = self.catalog.next_version(prepared.doc_id)
            chunks = with_version(prepared.chunks, version)
            info = DocumentInfo(
                doc_id=prepared.doc_id, title=prepared.parsed.title, source=prepared.parsed.source, version=version,
                audience=audience, chunk_count=len(chunks), ingested_at=chunks[0].ingested_at,
                content_hash=prepared.content_hash, effective_date=effective_date, status="pending",
            )
            try:
                self.catalog.insert_version(info, chunks, prepared.tokens)
            except sqlite3.IntegrityError:  # only without the writer lock (no fcntl)
                if attempt == VERSION_ATTEMPTS - 1:
                    raise
                continue
            return info, chunks
        raise AssertionError("unreachable")

    def _discard(self, info: DocumentInfo, ids: list[str]) -> None:
        """Take a pending version out of every store, each step on its own: on a full disk the vector delete
        failed too, and skipping `discard_version` left a 写入中 version in the catalog until a restart."""
        steps = (lambda: self._delete_vectors(ids), lambda: self._delete_sentence_rows(ids),
                 lambda: self.catalog.discard_version(info.doc_id, info.version), self.keywords.reload)
        for undo in steps:
            try:
                undo()
            except Exception:  # noqa: BLE001 - the write's own error is raised; the next write or start retries
                _log.warning("discarding pending %s v%s: a step failed", info.doc_id, info.version, exc_info=True)

    def _delete_vectors(self, ids: list[str]) -> None:
        """Delete vectors, or mark them left over (`LEFT_OVER`): a start drops them, not refuses an emptied catalog."""
        try:
            self.vectors.delete(ids)
        except Exception:
            with suppress(Exception):
                self.catalog.set_meta(LEFT_OVER, "1")
            raise

    def _drop_leftovers(self, doc_id: str) -> None:
        """Discard this document's pending versions whose cleanup failed (a full disk cannot even delete): holding
        the writer lock no one else is writing them, so the retry after freeing space does not wait for a restart."""
        if not self._exclusive:  # only the thread lock (no fcntl): a pending version may be another's write
            return
        for left in [v for v in self.catalog.pending() if v.doc_id == doc_id]:
            self._discard(left, [c.chunk_id for c in self.catalog.chunks_of(doc_id, left.version)])

    def _retire_superseded(self, doc_id: str, timezone: str | None = None) -> list[str]:
        """Retire current versions a newer one should have retired (left by two concurrent writers)."""
        extra = self.catalog.superseded(doc_id, timezone)
        for old in extra:
            self._retire(old)
        if not extra:
            return []
        shown = "、".join(f"v{v.version}" for v in extra)
        return [f"同时生效的旧版本 {shown} 已停用（两个导入同时进行时留下的）"]

    def _add_keywords(self, chunks: list[Chunk], tokens: list[list[str]]) -> None:
        """Index the new chunks' words; on a failure rebuild from the catalog's tokens (written with the version),
        since retiring the old version marks the index as up to date and no search would reload it."""
        try:
            self.keywords.add(zip([c.chunk_id for c in chunks], tokens))
        except Exception:  # noqa: BLE001 - the reload is the repair; if it fails too, that error is reported
            _log.warning("keyword index: adding %d chunks failed, reloading", len(chunks), exc_info=True)
            self.keywords.reload()

    def _embed_sentences(self, progress: Callable[[int, int], None]):
        def embed(texts: list[str]):
            return self.embedder.embed_passages(texts, progress=progress)

        return embed

    def _delete_sentence_rows(self, ids: list[str]) -> None:
        self.sentences.delete(ids)
        if self.second is not None:
            self.second.index.delete(ids)

    def _retire(self, old: DocumentInfo) -> None:
        """Take `old` out of every store. Each step is tried even when one fails (a full disk), so it is marked
        retired whenever the catalog can still be written; the first error is raised after them all."""
        old_chunks = self.catalog.chunks_of(old.doc_id, old.version)
        ids = [c.chunk_id for c in old_chunks]
        failed = run_each([
            ("centroid", lambda: self.centroid.remove(old_chunks)), ("vectors", lambda: self._delete_vectors(ids)),
            ("sentences", lambda: self._delete_sentence_rows(ids)),
            ("chunks", lambda: self.catalog.delete_chunks(old.doc_id, old.version)),
            ("status", lambda: self.catalog.set_status(old.doc_id, old.version, "retired")),
            ("keywords", lambda: self.keywords.remove(ids)),
        ], f"retiring {old.doc_id} v{old.version}")
        if failed:
            raise failed[0][1]

    def delete_document(self, doc_id: str, guard: Callable[[], None] | None = None, today: str | None = None) -> int:
        """Remove every version's chunks from Chroma, BM25, the catalog and the embedding cache.

        `guard` runs holding the locks before anything is removed and may raise to refuse (as `write(guard=...)`);
        `today`: the office's day, whose version in effect leaves its audience behind (`Catalog.delete_document`)."""
        with self.lock, self.catalog.writer.hold():
            if guard is not None:
                guard()
            chunks = self.catalog.chunks_of(doc_id)
            if not chunks and not self.catalog.versions(doc_id):
                return 0
            ids = [c.chunk_id for c in chunks]
            self.vectors.count()  # a Chroma server that is down refuses the delete here, before anything is removed
            try:  # the catalog first, in one transaction: on a full disk it fails whole and nothing else is touched
                self.catalog.delete_document(doc_id, today)
            except Exception as exc:
                if disk_full(exc):
                    raise RagError(DELETE_DISK_FULL) from exc
                raise
            # gone from every list and answer; a step a full disk left undone leaves rows nobody reads (the next start
            # rebuilds the vectors); any other failure is `LeftOver`: the caller audits and holds, then says it
            failed = run_each([
                ("centroid", lambda: self.centroid.remove(chunks)), ("vectors", lambda: self._delete_vectors(ids)),
                ("sentences", lambda: self._delete_sentence_rows(ids)),
                ("embedding cache", lambda: self.embedder.forget([index_text(c) for c in chunks])),
                ("second cache", lambda: self.second and self.second.embedder.forget([second_chunk_text(c) for c in chunks])),
                ("names", lambda: self.name_keys.forget(doc_id)), ("keywords", lambda: self.keywords.remove(ids)),
            ], f"deleting {doc_id}")
            if other := [exc for _, exc in failed if not disk_full(exc)]:
                raise LeftOver(len(ids), other[0])
            return len(ids)

    def check_vectors(self, repair: bool = True) -> VectorCheck:
        """Can every stored chunk still be found by vector search? Re-writes the ones that cannot."""
        with self.lock:
            self.keywords.sync()
            return self.vectors.verify(repair=repair, known=self.keywords.has)


def recover_pending(catalog: Catalog, vectors: ChromaVectorStore) -> None:
    """Drop versions a crash left half-written (their chunks never became current).

    Only when no writer holds the data dir's lock: then a pending version is another
    process's write in progress, and removing it would pull the rows from under it.
    """
    with catalog.writer.try_hold() as free:
        if not free:
            return
        for info in catalog.pending():
            ids = [c.chunk_id for c in catalog.chunks_of(info.doc_id, info.version)]
            vectors.delete(ids)
            catalog.discard_version(info.doc_id, info.version)


def reembed_all(catalog: Catalog, vectors: ChromaVectorStore, embedder: CachedEmbedder) -> None:
    """The store was built by another model or layout: rebuild every vector with this one."""
    chunks = list(catalog.all_chunks())
    vectors.reset(embedder.model_id)
    catalog.set_meta("centroid", "")
    if chunks:
        vectors.upsert(chunks, embedder.embed_passages([index_text(c) for c in chunks]))
