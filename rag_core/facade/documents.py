"""Document actions: upload, versions, audiences, delete, samples, re-index.

The write path itself lives in `search.indexer`; this mixin validates the request
and forwards. Attributes it uses (`catalog`, `indexer`, `_settings`) are set up by
`Assistant.__init__`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path

from ..documents.chunking import rejoin
from ..documents.prepare import prepare
from ..documents.safe_read import read_regular_file
from ..errors import DocumentIdConflict, IngestError, RagError
from ..search.vector_store import VectorCheck
from ..types import Chunk, DocumentInfo, IngestReport

Progress = Callable[[str, float], None]
SAMPLES_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "samples"


class DocumentActions:
    """Mixin of `Assistant`: everything the documents page and `docs` commands do."""

    def ingest_file(self, path: str | Path, **kwargs) -> IngestReport:
        """Index a file from disk (refused by its size before it is read); see `ingest_bytes`."""
        path = Path(path)
        name = kwargs.pop("filename", None) or path.name
        try:  # only a regular file, never more than the size limit (a FIFO, a device, a directory are refused)
            data = read_regular_file(path, max_bytes=self._settings.max_file_bytes, name=name)
        except IngestError as exc:
            return IngestReport(filename=exc.filename, status="refused", error=str(exc))
        return self.ingest_bytes(data, name, **kwargs)

    def ingest_bytes(
        self,
        data: bytes,
        filename: str,
        *,
        audience: Sequence[str] = ("all",),
        doc_id: str | None = None,
        effective_date: str | None = None,
        redact_disabled: Sequence[str] = (),
        progress: Progress | None = None,
    ) -> IngestReport:
        """Index one file as a new version; a refused file leaves the store unchanged."""
        audience_t = tuple(sorted({a.strip() for a in audience if a.strip()})) or ("all",)
        step = progress or (lambda stage, frac: None)
        try:
            step("解析与切块", 0.05)
            if effective_date:
                try:
                    date.fromisoformat(effective_date)
                except ValueError as exc:
                    raise IngestError(filename, f"生效日期 {effective_date!r} 不是 YYYY-MM-DD 格式") from exc
            prepared = prepare(
                data, filename, self._settings, doc_id=doc_id, audience=audience_t,
                redact_disabled=frozenset(redact_disabled),
                sources_of=lambda known: [v.source for v in self.catalog.versions(known)],
            )
            step("解析与切块", 0.2)
            return self.indexer.write(prepared, audience_t, effective_date, step)
        except DocumentIdConflict as exc:
            return IngestReport(filename=exc.filename, status="refused", error=str(exc), conflict_doc_id=exc.doc_id)
        except IngestError as exc:
            return IngestReport(filename=exc.filename, status="refused", error=str(exc))
        except RagError as exc:
            return IngestReport(filename=filename, status="refused", error=f"{filename}: {exc}")

    def delete_document(self, doc_id: str) -> int:
        """Remove every version of a document from every store; returns the chunks removed."""
        return self.indexer.delete_document(doc_id)

    def list_documents(self, role: str | None = None) -> list[DocumentInfo]:
        """Each document's version in effect today (scheduled ones marked)."""
        today = date.today().isoformat()
        out: dict[str, DocumentInfo] = {}
        for info in self.catalog.live_versions():
            if role is not None and not ("all" in info.audience or role in info.audience):
                continue
            if info.effective_date and info.effective_date > today:
                if info.doc_id not in out:
                    out[info.doc_id] = replace(info, status="scheduled")
                continue
            if info.doc_id not in out or out[info.doc_id].status == "scheduled" or info.version > out[info.doc_id].version:
                out[info.doc_id] = info
        return sorted(out.values(), key=lambda d: d.doc_id)

    def document_versions(self, doc_id: str) -> list[DocumentInfo]:
        """Every version of a document, oldest first, with its status."""
        return self.catalog.versions(doc_id)

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        """The stored chunks of a document's live versions, in order."""
        return self.catalog.chunks_of(doc_id)

    def ensure_samples(self, directory: Path | None = None, progress: Progress | None = None) -> list[IngestReport]:
        """Index the bundled sample policies on first start (no-op when documents exist)."""
        if self.catalog.live_versions():
            return []
        folder = directory or SAMPLES_DIR
        files = sorted(p for p in folder.glob("*") if p.is_file() and not p.name.startswith("."))
        return [self.ingest_file(p, progress=progress) for p in files]

    def reindex(self, progress: Progress | None = None) -> int:
        """Re-chunk every current document with the current settings (new versions)."""
        count = 0
        with self.indexer.lock:
            for info in self.catalog.live_versions():
                chunks = self.catalog.chunks_of(info.doc_id, info.version)
                data = rejoin(chunks).encode("utf-8")
                name = info.source.rsplit(".", 1)[0] + ".txt" if not info.source.endswith((".md", ".txt")) else info.source
                rep = self.ingest_bytes(
                    data, name, audience=info.audience, doc_id=info.doc_id, effective_date=info.effective_date, progress=progress
                )
                count += rep.chunk_count if rep.ok else 0
        return count

    def check_vectors(self, repair: bool = True) -> VectorCheck:
        """Can every stored chunk still be found by vector search? Re-writes the ones that cannot."""
        return self.indexer.check_vectors(repair=repair)
