"""The facade: every action a user has, and nothing about Streamlit.

The pages, the CLI and the tests call these methods and nothing deeper, so
chat and the retrieval test page run the very same search.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

from .background import CorpusCentroid
from .catalog import Catalog
from .chunking import rejoin
from .embedding import CachedEmbedder, Embedder, load_embedder
from .errors import IngestError, RagError
from .ingest import PreparedDocument, index_text, prepare, with_version
from .keyword_index import KeywordIndex
from .prompt import NOT_IN_POLICY, build_prompt
from .retrieval import HybridRetriever
from .settings import Settings
from .tokenizer import warm_up_tokenizer
from .types import AskTrace, Chunk, DocumentInfo, IngestReport, MemoryHit, SearchResult
from .vector_store import LAYOUT as VECTOR_LAYOUT
from .vector_store import REPAIR_ATTEMPTS, ChromaVectorStore, VectorCheck

Progress = Callable[[str, float], None]
SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Assistant:
    """Owns the stores and the models; safe to share between threads (one per process)."""

    def __init__(self, settings: Settings, *, embedder: Embedder | None = None, llm=None):
        self._settings = settings
        data_dir = Path(settings.data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.RLock()
        self.catalog = Catalog(settings.path("catalog.sqlite3"))
        inner = embedder or load_embedder(settings.embedding_model)
        self.embedder = CachedEmbedder(inner, settings.path("embedding_cache.sqlite3"), settings.embed_batch_size)
        self.vectors = ChromaVectorStore(
            path=settings.path("chroma"),
            host=settings.chroma_host,
            port=settings.chroma_port,
            model_id=self.embedder.model_id,
            name=f"policy_chunks_{self._store_id()}",
        )
        self._recover_pending()
        if (
            self.vectors.model_id != self.embedder.model_id
            or self.vectors.count() != self.catalog.chunk_count()
            or (self.catalog.get_meta("vector_layout") != VECTOR_LAYOUT and self.catalog.chunk_count())
        ):
            self._reembed_all()  # another model or layout built it, or the vector store lost/gained data
        self.catalog.set_meta("vector_layout", VECTOR_LAYOUT)
        self.keywords = KeywordIndex(self.catalog)
        self.centroid = CorpusCentroid(self.catalog, self.vectors, self.embedder.model_id, self.embedder.dim)
        self.retriever = HybridRetriever(self.catalog, self.vectors, self.keywords, self.embedder, self.centroid)
        if llm is None:
            from .llm import make_llm

            llm = make_llm(settings)
        self.llm = llm
        self._memory = None
        warm_up_tokenizer()  # jieba loads its dictionary lazily: 0.5 s the first question would pay

    def _store_id(self) -> str:
        """A per-catalog id, so several stores can share one Chroma server without collisions."""
        store_id = self.catalog.get_meta("store_id")
        if not store_id:
            import uuid

            store_id = uuid.uuid4().hex[:12]
            self.catalog.set_meta("store_id", store_id)
        return store_id

    @classmethod
    def open(cls, data_dir: str | Path | None = None, *, env_file: str | Path | None = ".env", **overrides) -> Assistant:
        """Settings from the environment (and `.env`), then `overrides`."""
        return cls(Settings.from_env(data_dir=data_dir, env_file=env_file, **overrides))

    # -- settings --------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self._settings

    def update_settings(self, **changes) -> bool:
        """Apply validated changes now; True when chunking changed (re-index needed)."""
        new = self._settings.with_changes(**changes)
        needs_reindex = (new.chunk_size, new.chunk_overlap) != (self._settings.chunk_size, self._settings.chunk_overlap)
        self._settings = new
        if self._memory is not None:
            self._memory.half_life_days = new.memory_half_life_days
            self._memory.threshold = new.memory_threshold
            self._memory.top_k = new.memory_top_k
        return needs_reindex

    @property
    def thresholds(self):
        """The thresholds search uses now, with the model's calibrated cosine values filled in."""
        from .retrieval import thresholds_for

        return thresholds_for(self._settings, self.embedder.model_id)

    @property
    def llm_status(self) -> str:
        return f"大模型：{self.llm.name}" if self.llm is not None else "离线抽取式回答（未配置大模型）"

    # -- documents -------------------------------------------------------------
    def ingest_file(self, path: str | Path, **kwargs) -> IngestReport:
        path = Path(path)
        name = kwargs.pop("filename", None) or path.name
        try:
            size = path.stat().st_size
        except OSError as exc:
            return IngestReport(filename=name, status="refused", error=f"{name}: 无法读取文件（{exc.strerror}）")
        if size > self._settings.max_file_bytes:
            limit = self._settings.max_file_mb
            return IngestReport(
                filename=name, status="refused",
                error=f"{name}: 文件大小 {size / 1048576:.1f} MB 超过上限 {limit:g} MB",
            )
        return self.ingest_bytes(path.read_bytes(), name, **kwargs)

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
            )
            step("解析与切块", 0.2)
            with self._write_lock:
                return self._write_version(prepared, audience_t, effective_date, step)
        except IngestError as exc:
            return IngestReport(filename=exc.filename, status="refused", error=str(exc))
        except RagError as exc:
            return IngestReport(filename=filename, status="refused", error=f"{filename}: {exc}")

    def _write_version(
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
                [index_text(c) for c in chunks], progress=lambda done, total: step("向量化", 0.2 + 0.6 * done / total)
            )
            step("写入索引", 0.85)
            unreachable = self.vectors.upsert(chunks, vectors)
            self._fail_point("after_vectors")
            self.catalog.set_status(doc_id, version, "current")
        except BaseException:
            self.vectors.delete([c.chunk_id for c in chunks])
            self.catalog.discard_version(doc_id, version)
            self.keywords.reload()
            raise
        self.keywords.add(zip([c.chunk_id for c in chunks], prepared.tokens))
        self.centroid.add(vectors)
        if not effective_date or effective_date <= date.today().isoformat():
            for old in live:
                self._retire(old)
        step("完成", 1.0)
        return IngestReport(
            filename=prepared.parsed.source, status="indexed", doc_id=doc_id, version=version,
            chunk_count=len(chunks), audience=audience, redactions=prepared.redactions,
            warnings=prepared.warnings + _unreachable_warning(unreachable),
        )

    def _fail_point(self, name: str) -> None:
        """Hook for tests that simulate a crash mid-ingest; does nothing in production."""

    def _retire(self, old: DocumentInfo) -> None:
        ids = [c.chunk_id for c in self.catalog.chunks_of(old.doc_id, old.version)]
        self.centroid.remove(ids)
        self.vectors.delete(ids)
        self.catalog.delete_chunks(old.doc_id, old.version)
        self.catalog.set_status(old.doc_id, old.version, "retired")
        self.keywords.remove(ids)

    def delete_document(self, doc_id: str) -> int:
        """Remove every version's chunks from Chroma, BM25, the catalog and the embedding cache."""
        with self._write_lock:
            chunks = self.catalog.chunks_of(doc_id)
            if not chunks and not self.catalog.versions(doc_id):
                return 0
            ids = [c.chunk_id for c in chunks]
            self.centroid.remove(ids)
            self.vectors.delete(ids)
            self.embedder.forget([index_text(c) for c in chunks])
            self.catalog.delete_document(doc_id)
            self.keywords.remove(ids)
            return len(ids)

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
        return self.catalog.versions(doc_id)

    def document_chunks(self, doc_id: str) -> list[Chunk]:
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
        with self._write_lock:
            for info in self.catalog.live_versions():
                chunks = self.catalog.chunks_of(info.doc_id, info.version)
                data = rejoin(chunks).encode("utf-8")
                name = info.source.rsplit(".", 1)[0] + ".txt" if not info.source.endswith((".md", ".txt")) else info.source
                rep = self.ingest_bytes(
                    data, name, audience=info.audience, doc_id=info.doc_id, effective_date=info.effective_date, progress=progress
                )
                count += rep.chunk_count if rep.ok else 0
        return count

    def _recover_pending(self) -> None:
        """Drop versions a crash left half-written (their chunks never became current)."""
        for info in self.catalog.pending():
            ids = [c.chunk_id for c in self.catalog.chunks_of(info.doc_id, info.version)]
            self.vectors.delete(ids)
            self.catalog.discard_version(info.doc_id, info.version)

    def _reembed_all(self) -> None:
        """The store was built by another model: rebuild every vector with this one."""
        chunks = [c for c in self.catalog.all_chunks()]
        self.vectors.reset(self.embedder.model_id)
        self.catalog.set_meta("centroid", "")
        if chunks:
            vectors = self.embedder.embed_passages([index_text(c) for c in chunks])
            self.vectors.upsert(chunks, vectors)

    def check_vectors(self, repair: bool = True) -> VectorCheck:
        """Can every stored chunk still be found by vector search? Re-writes the ones that cannot."""
        with self._write_lock:
            self.keywords.sync()
            return self.vectors.verify(repair=repair, known=self.keywords.has)

    # -- search and answers ----------------------------------------------------
    def search(self, question: str, *, role: str = "all", top_k: int | None = None, mode: str = "hybrid") -> SearchResult:
        return self.retriever.search(question, self._settings, role=role, top_k=top_k, mode=mode)

    def ask(
        self,
        question: str,
        *,
        user: str = "default",
        role: str = "all",
        on_token: Callable[[str], None] | None = None,
        remember: bool = True,
    ) -> AskTrace:
        """Search, recall memories, build the guarded prompt, answer, write back."""
        timings: dict[str, float] = {}
        result = self.search(question, role=role)
        t = time.perf_counter()
        memories = self.recall(user, question) if user else []
        timings["memory_ms"] = round((time.perf_counter() - t) * 1000, 2)
        built = build_prompt(question, result.hits, memories, self._settings.token_budget)
        t = time.perf_counter()
        if not built.sources:
            answer = NOT_IN_POLICY
            answerer = "无命中：不调用模型"
            if on_token:
                on_token(answer)
        elif self.llm is not None:
            answerer = self.llm.name
            if on_token:
                parts = []
                for piece in self.llm.stream(built.text):
                    parts.append(piece)
                    on_token(piece)
                answer = "".join(parts).strip()
            else:
                answer = self.llm.complete(built.text).strip()
        else:
            from .answer_extractive import ExtractiveAnswerer

            answerer = ExtractiveAnswerer.name
            answer = ExtractiveAnswerer().answer(question, built.sources)
            if on_token:
                on_token(answer)
        timings["answer_ms"] = round((time.perf_counter() - t) * 1000, 2)
        if remember and user:
            t = time.perf_counter()
            self.memory.write_back(user, question, answer, now=_utcnow(), llm=self.llm)
            timings["write_back_ms"] = round((time.perf_counter() - t) * 1000, 2)
        return AskTrace(
            question=question, answer=answer, search=result, memories=memories, prompt=built.text,
            sources=built.sources, prompt_tokens=built.tokens, token_budget=self._settings.token_budget,
            dropped_hits=built.dropped, answerer=answerer, timings_ms=timings,
        )

    def record_feedback(self, trace: AskTrace, rating: int, user: str) -> None:
        self.catalog.add_feedback(_utcnow().isoformat(timespec="seconds"), user, trace.question, int(rating), trace.to_dict())

    def run_eval(self, path: str | Path, *, mode: str = "hybrid", role: str = "all") -> dict:
        from .evaluation import run_eval

        return run_eval(self, Path(path), mode=mode, role=role)

    # -- memories --------------------------------------------------------------
    @property
    def memory(self):
        if self._memory is None:
            from .memory import MemoryStore

            s = self._settings
            self._memory = MemoryStore(
                s.path("memory.sqlite3"), self.embedder, half_life_days=s.memory_half_life_days,
                threshold=s.memory_threshold, top_k=s.memory_top_k, retention_days=s.memory_retention_days,
            )
            # housekeeping that has no other trigger: expire stale chatter, purge old soft-deletes
            now = _utcnow()
            self._memory.expire(now)
            self._memory.purge_deleted(now)
        return self._memory

    def remember(self, user: str, content: str, kind: str = "profile", importance: float | None = None,
                 created_at: datetime | None = None) -> tuple[str, str]:
        return self.memory.add(user, content, kind=kind, importance=importance, created_at=created_at, now=_utcnow())

    def recall(self, user: str, query: str, now: datetime | None = None) -> list[MemoryHit]:
        return self.memory.search(user, query, now=now or _utcnow())

    def list_memories(self, user: str, query: str | None = None, kind: str | None = None) -> list[MemoryHit]:
        return self.memory.list(user, now=_utcnow(), query=query, kind=kind)

    def update_memory_importance(self, memory_id: str, importance: float) -> None:
        self.memory.update_importance(memory_id, importance)

    def delete_memories(self, memory_ids: Sequence[str]) -> int:
        return self.memory.delete(list(memory_ids), now=_utcnow())

    def preview_forget(self, keep: int, user: str | None = None) -> list[MemoryHit]:
        return self.memory.preview_forget(keep, user_id=user, now=_utcnow())

    def forget_memories(self, keep: int, user: str | None = None) -> int:
        return self.memory.forget(keep, user_id=user, now=_utcnow())

    def purge_memories(self, user: str) -> int:
        return self.memory.purge_user(user)


def _unreachable_warning(chunk_ids: Sequence[str]) -> list[str]:
    """A write the vector index still cannot find after repair: the chunks stay findable by keywords only."""
    if not chunk_ids:
        return []
    shown = "、".join(chunk_ids[:3]) + ("等" if len(chunk_ids) > 3 else "")
    return [
        f"{len(chunk_ids)} 个块写入向量库后仍无法被向量检索找到（已自动重写 {REPAIR_ATTEMPTS} 次；"
        f"块很多的库里也可能是近似检索本身的局限）：{shown}。"
        "这些块目前只能通过关键词命中，请把这条提示转给系统管理员"
    ]
