"""The facade: every action a user has, and nothing about Streamlit.

The pages, the CLI and the tests call these methods and nothing deeper, so
chat and the retrieval test page run the very same search. The facade only
wires the stages together and forwards; the work lives in the stage packages
(documents, search, answer, memory, evaluation).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

from .answer.answering import compose_answer
from .answer.prompt import build_prompt
from .documents.catalog import Catalog
from .documents.chunking import rejoin
from .documents.prepare import prepare
from .errors import IngestError, RagError
from .search.answerability import Model
from .search.centroid import CorpusCentroid
from .search.embedding import CachedEmbedder, Embedder, load_embedder
from .search.indexer import Indexer, backfill_sentences, recover_pending, reembed_all
from .search.keyword_index import KeywordIndex
from .search.retrieval import HybridRetriever, decision_model
from .search.sentence_index import SentenceIndex
from .search.vector_store import LAYOUT as VECTOR_LAYOUT
from .search.vector_store import ChromaVectorStore, VectorCheck
from .settings import Settings
from .text.thesaurus import Thesaurus, custom_text, parse_entries
from .text.tokenizer import warm_up_tokenizer
from .types import AskTrace, Chunk, DocumentInfo, IngestReport, MemoryHit, SearchResult

Progress = Callable[[str, float], None]
THESAURUS_FILE = "thesaurus.tsv"  # HR's own entries, in the data dir
SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Assistant:
    """Owns the stores and the models; safe to share between threads (one per process)."""

    def __init__(self, settings: Settings, *, embedder: Embedder | None = None, llm=None):
        self._settings = settings
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
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
        recover_pending(self.catalog, self.vectors)
        if (
            self.vectors.model_id != self.embedder.model_id
            or self.vectors.count() != self.catalog.chunk_count()
            or (self.catalog.get_meta("vector_layout") != VECTOR_LAYOUT and self.catalog.chunk_count())
        ):
            # another model or layout built it, or the vector store lost/gained data
            reembed_all(self.catalog, self.vectors, self.embedder)
        self.catalog.set_meta("vector_layout", VECTOR_LAYOUT)
        self.sentences = SentenceIndex(settings.path("sentences.sqlite3"), self.embedder.model_id)
        backfill_sentences(self.catalog, self.sentences, self.embedder)
        self.keywords = KeywordIndex(self.catalog)
        self.centroid = CorpusCentroid(self.catalog, self.vectors, self.embedder.model_id, self.embedder.dim)
        self.thesaurus = Thesaurus.load(settings.path(THESAURUS_FILE))
        self.indexer = Indexer(self.catalog, self.embedder, self.vectors, self.keywords, self.centroid, self.sentences)
        self.retriever = HybridRetriever(
            self.catalog, self.vectors, self.keywords, self.embedder, self.centroid, self.sentences, self.thesaurus
        )
        if llm is None:
            from .answer.llm import make_llm

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
        """An assistant on settings from the environment (and `.env`), then `overrides`."""
        return cls(Settings.from_env(data_dir=data_dir, env_file=env_file, **overrides))

    # -- settings --------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        """The settings in force now (the settings page may have changed them)."""
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
    def decision(self) -> Model:
        """The answerability model search uses now (its threshold from the settings when set there)."""
        return decision_model(self._settings)

    # -- thesaurus -------------------------------------------------------------
    def custom_thesaurus(self) -> str:
        """HR's own thesaurus entries, as the text the settings page edits."""
        return custom_text(self.thesaurus.custom)

    def save_custom_thesaurus(self, text: str) -> int:
        """Validate and store HR's entries (a bad line is refused with its number); returns how many."""
        entries = parse_entries(text, "自定义词表")
        path = self._settings.path(THESAURUS_FILE)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(custom_text(entries), encoding="utf-8")
        tmp.replace(path)
        self.thesaurus = Thesaurus.load(path)
        self.retriever.thesaurus = self.thesaurus
        return len(entries)

    @property
    def llm_status(self) -> str:
        """One line for the sidebar: which model answers, or the offline answerer."""
        return f"大模型：{self.llm.name}" if self.llm is not None else "离线抽取式回答（未配置大模型）"

    # -- documents -------------------------------------------------------------
    def ingest_file(self, path: str | Path, **kwargs) -> IngestReport:
        """Index a file from disk (refused by its size before it is read); see `ingest_bytes`."""
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
            return self.indexer.write(prepared, audience_t, effective_date, step)
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

    # -- search and answers ----------------------------------------------------
    def search(self, question: str, *, role: str = "all", top_k: int | None = None, mode: str = "hybrid") -> SearchResult:
        """The one search chat, the retrieval test page, the CLI and the eval all use."""
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
        started = time.perf_counter()
        memories = self.recall(user, question) if user else []
        timings["memory_ms"] = _ms(started)
        built = build_prompt(question, result.hits, memories, self._settings.token_budget)
        started = time.perf_counter()
        groups = {word: set(terms) for word, terms in result.synonym_groups.items()}
        answer, answerer = compose_answer(question, built, self.llm, on_token, groups)
        timings["answer_ms"] = _ms(started)
        if remember and user:
            started = time.perf_counter()
            self.memory.write_back(user, question, answer, now=_utcnow(), llm=self.llm)
            timings["write_back_ms"] = _ms(started)
        return AskTrace(
            question=question, answer=answer, search=result, memories=memories, prompt=built.text,
            sources=built.sources, prompt_tokens=built.tokens, token_budget=self._settings.token_budget,
            dropped_hits=built.dropped, answerer=answerer, timings_ms=timings,
        )

    def record_feedback(self, trace: AskTrace, rating: int, user: str) -> None:
        """Store a 👍 (1) or 👎 (-1) with the full trace it rates."""
        self.catalog.add_feedback(_utcnow().isoformat(timespec="seconds"), user, trace.question, int(rating), trace.to_dict())

    def run_eval(self, path: str | Path, *, mode: str = "hybrid", role: str = "all") -> dict:
        """Recall / MRR / zero-hit rate per category on a JSONL question set."""
        from .evaluation.runner import run_eval

        return run_eval(self, Path(path), mode=mode, role=role)

    # -- memories --------------------------------------------------------------
    @property
    def memory(self):
        """The per-user memory store, opened on first use."""
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
        """Store a memory for `user`; returns (memory id, what happened: added/reinforced/replaced)."""
        return self.memory.add(user, content, kind=kind, importance=importance, created_at=created_at, now=_utcnow())

    def recall(self, user: str, query: str, now: datetime | None = None) -> list[MemoryHit]:
        """The memories of `user` that pass the threshold for `query`."""
        return self.memory.search(user, query, now=now or _utcnow())

    def list_memories(self, user: str, query: str | None = None, kind: str | None = None) -> list[MemoryHit]:
        """All memories of `user`, optionally filtered by text or kind."""
        return self.memory.list(user, now=_utcnow(), query=query, kind=kind)

    def update_memory_importance(self, memory_id: str, importance: float) -> None:
        """Set a memory's importance (0–1)."""
        self.memory.update_importance(memory_id, importance)

    def delete_memories(self, memory_ids: Sequence[str]) -> int:
        """Delete memories by id; returns how many were deleted."""
        return self.memory.delete(list(memory_ids), now=_utcnow())

    def preview_forget(self, keep: int, user: str | None = None) -> list[MemoryHit]:
        """The memories `forget_memories(keep)` would remove, without removing them."""
        return self.memory.preview_forget(keep, user_id=user, now=_utcnow())

    def forget_memories(self, keep: int, user: str | None = None) -> int:
        """Keep the `keep` best memories by importance × freshness; returns how many were forgotten."""
        return self.memory.forget(keep, user_id=user, now=_utcnow())

    def purge_memories(self, user: str) -> int:
        """Delete every memory of `user` for good."""
        return self.memory.purge_user(user)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
