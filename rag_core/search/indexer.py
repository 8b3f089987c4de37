"""The write path: keep the catalog, the vectors, the keyword index and the centroid in step.

A new version is written as *pending*, embedded and stored, then made
*current*, and only then are the older versions retired; a crash at any point
leaves either the old or the new version in effect, never a mix
(`recover_pending` drops what a crash left half-written on the next start).
One lock serialises writers in this process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import date

from ..documents.catalog import Catalog
from ..documents.prepare import PreparedDocument, index_text, with_version
from ..types import Chunk, DocumentInfo, IngestReport
from .centroid import CorpusCentroid
from .embedding import CachedEmbedder
from .keyword_index import KeywordIndex
from .sentence_index import SecondModel, SentenceIndex, second_chunk_text, vector_rows
from .vector_store import REPAIR_ATTEMPTS, ChromaVectorStore, VectorCheck

Progress = Callable[[str, float], None]


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

    def fail_point(self, name: str) -> None:
        """Hook for tests that simulate a crash mid-write; does nothing in production."""

    def write(
        self, prepared: PreparedDocument, audience: tuple[str, ...], effective_date: str | None, step: Progress
    ) -> IngestReport:
        """Store `prepared` as the next version of its document (or report it unchanged)."""
        with self.lock:
            return self._write(prepared, audience, effective_date, step)

    def _write(
        self, prepared: PreparedDocument, audience: tuple[str, ...], effective_date: str | None, step: Progress
    ) -> IngestReport:
        doc_id = prepared.doc_id
        live = [v for v in self.catalog.versions(doc_id) if v.status == "current"]
        newest = live[-1] if live else None
        if (
            newest is not None
            and newest.content_hash == prepared.content_hash
            and newest.audience == audience
            and newest.effective_date == effective_date
        ):
            step("完成", 1.0)
            return IngestReport(
                filename=prepared.parsed.source, status="unchanged", doc_id=doc_id, version=newest.version,
                chunk_count=newest.chunk_count, audience=audience, redactions=prepared.redactions,
                warnings=["内容与当前版本完全相同，未生成新版本"],
            )
        version = self.catalog.next_version(doc_id)
        chunks = with_version(prepared.chunks, version)
        info = DocumentInfo(
            doc_id=doc_id, title=prepared.parsed.title, source=prepared.parsed.source, version=version,
            audience=audience, chunk_count=len(chunks), ingested_at=chunks[0].ingested_at,
            content_hash=prepared.content_hash, effective_date=effective_date, status="pending",
        )
        # 1) write the new version as pending; 2) make it current; 3) retire the old one.
        self.catalog.insert_version(info, chunks, prepared.tokens)
        try:
            vectors = self.embedder.embed_passages(
                [index_text(c) for c in chunks], progress=lambda done, total: step("向量化", 0.2 + 0.4 * done / total)
            )
            step("逐句向量化", 0.6)
            self.sentences.put(vector_rows(chunks, vectors, self._embed_sentences(step)))
            if self.second is not None:
                step("第二模型向量化", 0.8)
                self.second.index.put(self.second.rows(chunks))
            step("写入索引", 0.85)
            unreachable = self.vectors.upsert(chunks, vectors)
            self.fail_point("after_vectors")
            self.catalog.set_status(doc_id, version, "current")
        except BaseException:
            self.vectors.delete([c.chunk_id for c in chunks])
            self._delete_sentence_rows([c.chunk_id for c in chunks])
            self.catalog.discard_version(doc_id, version)
            self.keywords.reload()
            raise
        self.keywords.add(zip([c.chunk_id for c in chunks], prepared.tokens))
        self.centroid.add(vectors, audience)
        if not effective_date or effective_date <= date.today().isoformat():
            for old in live:
                self._retire(old)
        step("完成", 1.0)
        return IngestReport(
            filename=prepared.parsed.source, status="indexed", doc_id=doc_id, version=version,
            chunk_count=len(chunks), audience=audience, redactions=prepared.redactions,
            warnings=prepared.warnings + unreachable_warning(unreachable),
        )

    def _embed_sentences(self, step: Progress):
        def embed(texts: list[str]):
            return self.embedder.embed_passages(
                texts, progress=lambda done, total: step("逐句向量化", 0.6 + 0.25 * done / total)
            )

        return embed

    def _delete_sentence_rows(self, ids: list[str]) -> None:
        self.sentences.delete(ids)
        if self.second is not None:
            self.second.index.delete(ids)

    def _retire(self, old: DocumentInfo) -> None:
        old_chunks = self.catalog.chunks_of(old.doc_id, old.version)
        ids = [c.chunk_id for c in old_chunks]
        self.centroid.remove(old_chunks)
        self.vectors.delete(ids)
        self._delete_sentence_rows(ids)
        self.catalog.delete_chunks(old.doc_id, old.version)
        self.catalog.set_status(old.doc_id, old.version, "retired")
        self.keywords.remove(ids)

    def delete_document(self, doc_id: str) -> int:
        """Remove every version's chunks from Chroma, BM25, the catalog and the embedding cache."""
        with self.lock:
            chunks = self.catalog.chunks_of(doc_id)
            if not chunks and not self.catalog.versions(doc_id):
                return 0
            ids = [c.chunk_id for c in chunks]
            self.centroid.remove(chunks)
            self.vectors.delete(ids)
            self._delete_sentence_rows(ids)
            self.embedder.forget([index_text(c) for c in chunks])
            if self.second is not None:
                self.second.embedder.forget([second_chunk_text(c) for c in chunks])
            self.catalog.delete_document(doc_id)
            self.keywords.remove(ids)
            return len(ids)

    def check_vectors(self, repair: bool = True) -> VectorCheck:
        """Can every stored chunk still be found by vector search? Re-writes the ones that cannot."""
        with self.lock:
            self.keywords.sync()
            return self.vectors.verify(repair=repair, known=self.keywords.has)


def recover_pending(catalog: Catalog, vectors: ChromaVectorStore) -> None:
    """Drop versions a crash left half-written (their chunks never became current)."""
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


def backfill_rows(catalog: Catalog, index: SentenceIndex, rows: Callable[[list[Chunk]], list]) -> int:
    """Give every stored chunk its row in `index` (stores from before it, or a lost file); `rows` embeds a batch.

    Rows are written and deleted with their chunks, so equal counts mean nothing to do; only then is
    the whole catalog read (at 10k chunks the read, not the check, was the cost of a restart).
    """
    index.drop_other_models()
    if index.count() == catalog.chunk_count():
        return 0
    have = index.ids()
    chunks = list(catalog.all_chunks())
    index.delete(have - {c.chunk_id for c in chunks})
    todo = [c for c in chunks if c.chunk_id not in have]
    for start in range(0, len(todo), 256):
        index.put(rows(todo[start : start + 256]))
    return len(todo)


def backfill_sentences(catalog: Catalog, sentences: SentenceIndex, embedder: CachedEmbedder) -> int:
    """The e5 sentence rows (small-to-big); chunk vectors come from the cache, no model call for known chunks."""

    def rows(part: list[Chunk]) -> list:
        return vector_rows(part, embedder.embed_passages([index_text(c) for c in part]), embedder.embed_passages)

    return backfill_rows(catalog, sentences, rows)


def backfill_second(catalog: Catalog, second: SecondModel) -> int:
    """The second model's rows."""
    return backfill_rows(catalog, second.index, second.rows)


def unreachable_warning(chunk_ids: Sequence[str]) -> list[str]:
    """A write the vector index still cannot find after repair: the chunks stay findable by keywords only."""
    if not chunk_ids:
        return []
    shown = "、".join(chunk_ids[:3]) + ("等" if len(chunk_ids) > 3 else "")
    return [
        f"{len(chunk_ids)} 个块写入向量库后仍无法被向量检索找到（已自动重写 {REPAIR_ATTEMPTS} 次；"
        f"块很多的库里也可能是近似检索本身的局限）：{shown}。"
        "这些块目前只能通过关键词命中，请把这条提示转给系统管理员"
    ]
