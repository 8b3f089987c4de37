"""重新切块: every live version cut again with the chunk size and overlap in force, and which versions still need it.

A Chroma server (CHROMA_HOST) that is down or lost stops the re-cut: the versions not yet cut are named in the
report and the audit in one Chinese line instead of an exception that replaced the settings page, and
`versions_to_recut` (read from what the catalog records, `documents.cut_record`) keeps 重新切块 on offer until
every version is cut with the settings in force — the new chunk size was saved while nothing was cut.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from itertools import groupby
from typing import Any

from ..documents.bounds import ReindexReport
from ..documents.catalog import office_today
from ..documents.cut_record import cut_elsewhere
from ..documents.prepare import rechunk
from ..documents.standing import scheduled
from ..documents.taking_effect import replaced_on_their_day, taking_effect
from ..errors import RagError, VectorServerDown
from ..search.chroma_server import server_lost
from ..search.indexer import refuse_stale
from ..types import Chunk, DocumentInfo, Principal
from .replaced import said_replaced
from .standard_review import StandardReview

Progress = Callable[[str, float], None]
RETRY = "向量库服务器恢复后，请到“设置”页点“重新切块”"
KEPT_CUT = "未重新切块，仍按原来的切块检索"
_log = logging.getLogger(__name__)


def _label(info: DocumentInfo) -> str:
    return f"《{info.title}》v{info.version}"


class Reindexing(StandardReview):
    """Mixin of `Assistant` (through `DocumentActions`): the settings page's re-cut and its retry."""

    catalog: Any
    indexer: Any

    def _to_cut(self, every: list[DocumentInfo], today: str) -> list[DocumentInfo]:
        """The versions a re-cut writes: each document's version in effect and the scheduled ones that will take
        effect (`taking_effect`), by document, the one in effect first. Not an older version a dated one has
        replaced, nor a scheduled one another dated the same day replaces before it is ever in effect: its copy,
        numbered above the correction, won the tie on the day when the correction's own re-cut failed."""
        return sorted(taking_effect(every, today), key=lambda v: (v.doc_id, scheduled(v, today), v.version))

    def reindex(self, progress: Progress | None = None, *, actor: Principal | None = None) -> ReindexReport:
        """Re-chunk every live version with the current settings (new versions; one audit row).

        Each version keeps its title, file name, sections and masking (`rechunk`). A document is cut again only
        when every live version of it can be: all are cut before any is written, so a refusal (the chunk cap at
        a smaller size) leaves the whole document as it was, and is named. The version in effect is written
        first and leaves a scheduled one in place (`keep_scheduled`); the scheduled one is retired only after
        its re-cut copy is written, so a failure never loses it (the report says the version keeps its old cut). A
        scheduled version a same-day one replaces is never in effect: it is retired, not cut again (its copy, the
        higher number, would win the tie on the day over a correction whose re-cut failed). A lost vector server
        ends the run: the versions
        not cut are named once, with what to do, and `versions_to_recut` offers the retry."""
        actor = self._acting(actor, "settings")
        report = ReindexReport()
        step = progress or (lambda stage, frac: None)
        today = office_today(self._settings.timezone)
        done: set[tuple[str, int]] = set()
        with self.indexer.lock, said_replaced():
            every = self.catalog.live_versions()
            groups = [list(g) for _, g in groupby(self._to_cut(every, today), key=lambda v: v.doc_id)]
            for n, versions in enumerate(groups):
                try:
                    self._recut(versions, every, today, step, report, done)
                except Exception as exc:
                    if not (isinstance(exc, VectorServerDown) or server_lost(exc)):
                        raise
                    left = [_label(v) for group in groups[n:] for v in group if (v.doc_id, v.version) not in done]
                    down = exc if isinstance(exc, VectorServerDown) else VectorServerDown(self._server())
                    report.failed.append(f"{down}。以下版本未重新切块，仍按原来的切块检索：{'、'.join(left)}；{RETRY}")
                    break
        detail = f"{report.chunks} 块" + (f"；未能重新索引：{'；'.join(report.failed)}" if report.failed else "")
        self._audit(actor, "document.reindex", "全部文档", "failed" if report.failed else "ok", detail)
        return report

    def _recut(self, versions: list[DocumentInfo], every: list[DocumentInfo], today: str, step: Progress,
               report: ReindexReport, done: set[tuple[str, int]]) -> None:
        """One document's live versions cut again; a refusal is named in the report, a lost server is raised."""
        try:
            cut = [(info, rechunk(self._chunks_or_refuse(info), self._settings)) for info in versions]
        except RagError as exc:
            report.failed.append(f"《{versions[-1].title}》（每一版都未改动）：{exc}")
            return
        known = {v.version for v in every if v.doc_id == versions[0].doc_id}  # another writer's is stale
        for info, prepared in cut:
            try:
                written = self.indexer.write(prepared, info.audience, info.effective_date, step, keep_scheduled=True,
                                             today=today, timezone=self._settings.timezone,
                                             guard=lambda info=info, known=known: refuse_stale(self.catalog, info, known))
            except VectorServerDown:
                raise
            except RagError as exc:  # this version keeps its old cut, and still takes effect as before
                report.failed.append(f"{_label(info)}{KEPT_CUT}：{exc}")
                continue
            known.add(written.version)
            if written.status == "indexed":
                self._version_written(info.doc_id, written.version)  # a damaged history is a store notice
            step("完成", 1.0)  # the indexer is silent once the version is live
            if written.version != info.version and scheduled(info, today):
                self.indexer.retire(info)  # its re-cut copy is written: the old scheduled one goes
                self._move_pending_holds(info, written.version)
            report.chunks += written.chunk_count
            report.documents += 1
            done.add((info.doc_id, info.version))
        self._retire_cancelled(versions[0].doc_id, today)

    def _retire_cancelled(self, doc_id: str, today: str) -> None:
        """The scheduled versions of `doc_id` a same-day one replaces before they take effect (read as the catalog
        is now) are retired, not cut again; one that cannot be is left (it never answers) and logged, a lost
        server is raised."""
        live = [v for v in self.catalog.versions(doc_id) if v.status == "current"]
        for dead in replaced_on_their_day(live, today):
            try:
                self.indexer.retire(dead)
            except Exception as exc:
                if isinstance(exc, VectorServerDown) or server_lost(exc):
                    raise
                _log.warning("re-cut: could not retire %s v%s", dead.doc_id, dead.version, exc_info=True)

    def _version_written(self, doc_id: str, version: int) -> list[str]:
        """Called once a version is stored; `HistoryActions` records its text there (the version history compares
        it with the next upload). Nothing to do without that mixin."""
        return []

    def _server(self) -> str:
        return str(getattr(self.indexer.vectors, "server", "") or "")

    def _chunks_or_refuse(self, info: DocumentInfo) -> list[Chunk]:
        chunks = self.catalog.chunks_of(info.doc_id, info.version)
        if not chunks:
            raise RagError(f"v{info.version} 没有找到内容")
        return chunks

    def versions_to_recut(self, *, actor: Principal | None = None) -> list[str]:
        """The live versions a re-cut would write that were cut at another chunk size or overlap than the settings in
        force (《title》vN): a re-cut that stopped (the vector server down) left them, and HR needs to see and retry it.
        Kept per catalog generation and settings, so drawing the settings page does not read every chunk each time."""
        self._acting(actor, "settings")
        s = self._settings
        key = (self.catalog.generation(), s.chunk_size, s.chunk_overlap)
        kept = self.__dict__.get("_recut_memo")
        if kept is not None and kept[0] == key:
            return list(kept[1])
        every = self.catalog.live_versions()
        stale = [_label(v) for v in self._to_cut(every, office_today(s.timezone))
                 if cut_elsewhere(v, self.catalog.chunks_of(v.doc_id, v.version), s.chunk_size, s.chunk_overlap)]
        self.__dict__["_recut_memo"] = (key, stale)
        return list(stale)
