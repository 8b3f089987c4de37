"""The facade: every action a user has, and nothing about Streamlit.

The pages, the CLI and the tests call these methods and nothing deeper, so
chat and the retrieval test page run the very same search. The facade only
wires the stages together and forwards; the work lives in the stage packages
(documents, search, answer, memory, evaluation).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from .answer.answer_notes import AnswerNotes
from .answer.answering import compose_answer
from .answer.prompt import build_prompt
from .conversations.statements import split_turn
from .conversations.store import ForeignConversation
from .documents.catalog import Catalog
from .documents.search_words import remake_placeholder_words
from .errors import PermissionDenied, VectorServerDown
from .evaluation.metrics import CATEGORY_LABELS, METRIC_LABELS  # noqa: F401 - the pages and `eval` say them alike
from .facade.access import allowed
from .facade.accounts import AccountActions
from .facade.asker import AskerActions
from .facade.audience_preview import checked_preview, preview_labels
from .facade.conversations import ConversationActions
from .facade.data_format import mark_format, model_changed, refuse_backup, refuse_newer
from .facade.documents import SAMPLES_DIR, DocumentActions, Progress
from .facade.history import HistoryActions
from .facade.insights import InsightActions
from .facade.maintenance import EvalFiles, MaintenanceActions
from .facade.memories import MemoryActions, PersonalSearch
from .facade.model_status import ModelStatus
from .facade.old_ratings import move_old_ratings
from .facade.ratings import RatingActions
from .facade.settings_actions import SettingsActions
from .facade.stores import start_said_plainly
from .facade.thesaurus import THESAURUS_FILE, ThesaurusActions
from .facade.turn_access import HIDDEN_TURN
from .search.answerability import Model
from .search.centroid import META_KEY as CENTROID_KEY
from .search.centroid import CorpusCentroid
from .search.embedding import CachedEmbedder, Embedder, load_embedder, load_second_embedder
from .search.indexer import Indexer, backfill_second, backfill_sentences, recover_pending, reembed_all
from .search.keyword_index import KeywordIndex
from .search.model_cache import MODEL_STATE_DIR
from .search.retrieval import HybridRetriever, decision_model
from .search.sentence_index import SecondModel, SentenceIndex
from .search.vector_store import LAYOUT as VECTOR_LAYOUT
from .settings import LIMITS, Settings, out_of_limits
from .storage.backup import VECTOR_SERVER
from .storage.health import SECOND_CACHE, SECOND_SENTENCES, open_checks
from .storage.library_evidence import LEFT_OVER
from .storage.saved_settings import with_saved_changes
from .text.inputs import MAX_QUESTION_CHARS, InputError, checked
from .text.pii import redact_text
from .text.tokenizer import warm_up_tokenizer
from .types import AskTrace, Principal, SearchResult

# the start notice when the Chroma server did not answer: what works meanwhile, and that no restart is needed after
SERVER_DOWN_AT_START = ("在它恢复之前，提问只按关键词检索，导入、删除和重新切块都会失败；"
                        "它恢复后下一次检索自动改回向量检索，无需重启应用")

__all__ = ["AnswerNotes", "Assistant", "Progress", "SAMPLES_DIR", "THESAURUS_FILE"]


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Assistant(AskerActions, AccountActions, HistoryActions, DocumentActions, MemoryActions, ConversationActions, MaintenanceActions, EvalFiles,
                InsightActions, ThesaurusActions, RatingActions, ModelStatus, SettingsActions):
    """Owns the stores and the models; safe to share between threads (one per process).

    The actions are grouped in mixins under `rag_core.facade` (documents, memories, …);
    each checks the acting `Principal` with `_acting` before it reads or changes data.
    """

    MAX_QUESTION_CHARS = MAX_QUESTION_CHARS  # what a question may hold: the chat box stops typing there
    settings_notice = ""  # where the last save or clear kept the old settings.json (the settings page shows it)
    HIDDEN_TURN = HIDDEN_TURN  # a reopened turn's answer when it quoted what its reader may no longer read

    @staticmethod
    def shown_text(text: str) -> str:
        """Typed text as a page may echo it before (or without) the engine keeping it: personal data masked."""
        return redact_text(str(text))

    def __init__(self, settings: Settings, *, embedder: Embedder | None = None, second_embedder: Embedder | None = None,
                 llm=None):
        with start_said_plainly(Path(settings.data_dir)):
            refuse_backup(Path(settings.data_dir))  # opened, a backup would no longer restore
            refuse_newer(Path(settings.data_dir))  # a newer version's data dir is refused before anything is written
            Path(settings.data_dir).mkdir(mode=0o700, parents=True, exist_ok=True)  # for its owner only (SECURITY.md)
            # a damaged or lost catalog is refused with one line; damaged caches are set aside and rebuilt
            self.store_notices: list[str] = open_checks(Path(settings.data_dir), embedded_chroma=not settings.chroma_host)
            with self._holding_data_dir(Path(settings.data_dir)):  # a restore refused from here on, let go if this fails
                self._start(settings, embedder, second_embedder, llm)

    def _start(self, settings: Settings, embedder: Embedder | None, second_embedder: Embedder | None, llm) -> None:
        self._env_settings = settings  # .env and defaults, before the settings page's saved changes
        self._settings, self._saved_notice, self._saved = with_saved_changes(settings)  # the page's changes outlive a restart
        self.store_notices += [self._saved_notice] if self._saved_notice else []
        settings = self._settings
        self.catalog = Catalog(settings.path("catalog.sqlite3"))
        self.store_notices += move_old_ratings(self)  # an older version's ratings kept in the catalog
        inner = embedder or load_embedder(settings.embedding_model, state_dir=settings.path(MODEL_STATE_DIR))
        self.embedder = CachedEmbedder(inner, settings.path("embedding_cache.sqlite3"), settings.embed_batch_size)
        self.vectors = self._open_vectors()
        try:
            recover_pending(self.catalog, self.vectors)
            self.store_notices += self._rebuild_if_stale()
        except VectorServerDown as down:  # search answers by keywords until the server is back (`_server_back`)
            postponed = True
            self.store_notices.append(f"{down}。{SERVER_DOWN_AT_START}")
        else:
            postponed = False
        mark_format(self.catalog)
        server = f"{settings.chroma_host}:{settings.chroma_port}" if settings.chroma_host else ""
        if (self.catalog.get_meta(VECTOR_SERVER) or "") != server:  # a backup says its vectors are not in it
            self.catalog.set_meta(VECTOR_SERVER, server)
        self.sentences = SentenceIndex(settings.path("sentences.sqlite3"), self.embedder.model_id)
        backfill_sentences(self.catalog, self.sentences, self.embedder)
        self.second = self._open_second(settings, embedder, second_embedder)
        caches = [self.embedder, self.sentences, *((self.second.embedder, self.second.index) if self.second else ())]
        self.store_notices += [cache.damaged for cache in caches if cache.damaged]  # met damaged at start: rebuilt
        remake_placeholder_words(self.catalog)  # once: words kept from before masked data stopped being words
        self.keywords = KeywordIndex(self.catalog)
        self.centroid = CorpusCentroid(self.catalog, self.vectors, self.embedder.model_id, self.embedder.dim)
        self.thesaurus = self._load_thesaurus()  # HR's file never stops a start: what is wrong is one notice
        self.indexer = Indexer(self.catalog, self.embedder, self.vectors, self.keywords, self.centroid, self.sentences,
                               self.second)
        self.retriever = HybridRetriever(
            self.catalog, self.vectors, self.keywords, self.embedder, self.centroid, self.sentences, self.thesaurus,
            self.second,
        )
        if llm is None:
            from .answer.llm import make_llm

            llm = make_llm(settings)
        self.llm = llm
        self._memory = None
        warm_up_tokenizer()  # jieba loads its dictionary lazily: 0.5 s the first question would pay
        if postponed:  # the rebuild check and the centroid wait for the server; at once if it came back meanwhile
            self.vectors.when_opened = self._server_back
            if self.vectors.opened and not self.vectors.stale:
                try:
                    self.vectors.catch_up()
                except VectorServerDown:
                    pass  # down again: the next call that reaches it runs the check

    def _rebuild_if_stale(self) -> list[str]:
        """Rebuild the vectors from the embedding cache when `_vectors_stale`; the notice that says so.

        Under the writer lock, so a second process starting (or an upload) at the same time never writes beside it.
        The layout is recorded only once the check ran: a restore's "rebuild at next start" is never lost."""
        notices: list[str] = []
        if self._vectors_stale():  # another model or layout built it, or the vector store lost/gained data
            with self.catalog.writer.hold():
                if self._vectors_stale():  # another process may have rebuilt it while this one waited
                    built_by = self.vectors.model_id
                    reembed_all(self.catalog, self.vectors, self.embedder)
                    notices += model_changed(built_by, self.embedder.model_id, self.catalog.chunk_count())
        self.catalog.set_meta("vector_layout", VECTOR_LAYOUT)
        if self.catalog.get_meta(LEFT_OVER):  # a failed delete's leftover vectors are gone with the rebuild
            self.catalog.set_meta(LEFT_OVER, "")
        return notices

    def _server_back(self) -> None:
        """The Chroma server answers again after a start without it: the start's rebuild check, then the centroid.

        Run by the vector store at the first call that reaches the server. While a write is under way (in this thread,
        which the server's first answer may have come to, or in another process) it is armed again for a later call:
        it would count that version's chunks before their vectors exist. Otherwise a version a crash left pending is
        recovered first, as a start does (review 317: a server back empty was never rebuilt)."""
        with self.catalog.writer.try_hold() as free:
            if not free or self.catalog.writer.depth > 1:
                self.vectors.when_opened = self._server_back
                return
            recover_pending(self.catalog, self.vectors)
            self.store_notices += self._rebuild_if_stale()
        if not self.centroid.complete or not self.catalog.get_meta(CENTROID_KEY):  # a rebuild clears it
            self.centroid.recompute()

    def _vectors_stale(self) -> bool:
        """Another model, layout or count, or (on a Chroma server) other chunk ids: rebuild from the embedding cache.

        A server outlives the data dir: a restored (or copied) catalog can meet the vectors of a later edit of
        the same size, so there the ids are compared too (ids only; the catalog's chunks read once at start).
        The count is asked first: a server down since the start is `VectorServerDown` there, before the model."""
        count = self.catalog.chunk_count()
        stored = self.vectors.count()
        if (
            self.vectors.model_id != self.embedder.model_id
            or stored != count
            or bool(self.catalog.get_meta("vector_layout") != VECTOR_LAYOUT and count)
        ):
            return True
        if not self._settings.chroma_host or not count:
            return False
        ids = set(self.vectors.ids())
        return len(ids) != count or len(self.catalog.chunks_by_id(ids)) != count

    def _open_second(self, settings: Settings, embedder: Embedder | None,
                     second_embedder: Embedder | None) -> SecondModel | None:
        """The second ranking model (settings.second_embedding_model), its rows backfilled for older stores.

        A caller that brings its own main embedder (tests) gets no second one unless it brings that too.
        """
        if second_embedder is None and embedder is None:
            second_embedder = load_second_embedder(settings.second_embedding_model, settings.embedding_model,
                                                   settings.path(MODEL_STATE_DIR))
        if second_embedder is None:
            return None
        cache = CachedEmbedder(second_embedder, settings.path(SECOND_CACHE), settings.embed_batch_size)
        second = SecondModel(cache, SentenceIndex(settings.path(SECOND_SENTENCES), cache.model_id))
        backfill_second(self.catalog, second)
        return second

    @classmethod
    def open(cls, data_dir: str | Path | None = None, *, env_file: str | Path | None = ".env", **overrides) -> Assistant:
        """An assistant on settings from the environment (and `.env`), then `overrides`."""
        return cls(Settings.from_env(data_dir=data_dir, env_file=env_file, **overrides))

    # -- settings --------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        """The settings in force now (the settings page may have changed them)."""
        return self._settings

    @property
    def decision(self) -> Model:
        """The answerability model search uses now (its threshold from the settings when set there)."""
        return decision_model(self._settings)

    # -- search and answers ----------------------------------------------------
    def search(
        self, question: str, *, role: str | None = None, top_k: int | None = None, mode: str = "hybrid",
        actor: Principal | None = None,
    ) -> SearchResult:
        """The one search chat, the retrieval test page, the CLI and the eval all use.

        It reads only what the actor may read; `role` narrows that to one audience label
        (plus "all"), to preview what that audience sees. Never widens it. The question is masked
        (an ID number typed into it is never embedded, searched or echoed). `top_k` None is the setting's;
        outside the settings' limits it is refused (-1 found nothing and looked like an empty library).
        """
        actor = self._acting(actor, "ask")
        question = redact_text(checked(question))  # bounded, valid and masked before any model sees it
        role = checked_preview(role, self.catalog, actor.readable)  # never a label beyond the actor's reach
        if top_k is not None and (type(top_k) is not int or out_of_limits("top_k", top_k)):
            low, high, _ = LIMITS["top_k"]
            raise InputError(f"检索条数 top_k 须是 {low:g} 到 {high:g} 之间的整数，请改后重试（不填则用设置里的 {self._settings.top_k}）")
        self.thesaurus_in_force()  # another replica's 词表 save included
        return self.retriever.search(question, self._settings, reader=actor.reading(role), top_k=top_k, mode=mode)

    def preview_audiences(self, *, actor: Principal | None = None) -> list[str]:
        """The audience labels `actor` may search as (`role=`) and see all of: 检索测试 lets HR see what employees are
        told. A label beyond the actor's reach (managers, for HR) would show only what the actor reads, as if
        managers were told no more (review 387 #2): not offered."""
        actor = self._acting(actor, "retrieval.test")
        reach = None if actor.readable is None else set(actor.readable)
        return [label for label in preview_labels(self.catalog, actor.readable) if reach is None or label in reach]

    def search_as_chat(self, question: str, *, role: str | None = None, actor: Principal | None = None,
                       with_memories: bool = True, top_k: int | None = None, mode: str = "hybrid") -> PersonalSearch:
        """What chat's search does with `question` asked on its own, for the retrieval test page and the CLI: the text
        checked and masked, a statement about the asker left out (a turn that only tells searches nothing), HR's standard
        answer named when chat would give it instead, else the asker's own memories recalled and searched with.
        Only a conversation's earlier turns are not read; nothing is counted, logged or remembered."""
        actor = self._acting(actor, "ask")
        text = redact_text(checked(question))
        parts = split_turn(text)
        asked = parts.question
        if not asked:
            return PersonalSearch(text, SearchResult(query="", hits=[]), told_only=not parts.chatter,
                                  chatter=parts.chatter)
        result = self.search(asked, role=role, actor=actor, top_k=top_k, mode=mode)
        served = self._serve_standard_answer(asked, text, result, role=role, actor=actor, count=False)
        if served is not None:
            return PersonalSearch(asked, result, standard_answer=served.standard_answer or {})
        if not with_memories:
            return PersonalSearch(asked, result)
        return self._personal_search(asked, result, actor.user, role=role, actor=actor, timings={})

    def ask(
        self,
        question: str,
        *,
        user: str = "default",
        role: str | None = None,
        on_token: Callable[[str], None] | None = None,
        remember: bool = True,
        actor: Principal | None = None,
        conversation: str | None = None,
        traffic: str = "person",
    ) -> AskTrace:
        """Make a follow-up standalone, search, recall memories, build the guarded prompt, answer, write back.

        With `conversation` (any id; created on first use) the last turns are read
        for the rewrite and the answer step, and the turn is stored with its trace.
        A statement about the person is acknowledged with what was remembered.
        `traffic` says who asks: "person", or "eval" / "test" (logged, left out of the statistics).
        """
        actor, user, reader = self._asker(actor, user, conversation)
        if not user and conversation is not None and not allowed(actor, "memories.all"):
            nobody = PermissionDenied("只能在自己的对话里提问：请不要把提问人留空")
            self._audit(actor, "refused", f"ask in {conversation}", "refused", str(nobody))  # as every refusal
            raise nobody
        question = redact_text(checked(question))  # bounded, valid, and no personal data searched, stored or echoed
        role = checked_preview(role, self.catalog, reader.readable)  # refused before anything of the turn is kept
        asked_at = self.question_time()  # before the search: what it cites stood then
        self._audit_asked_as(actor, user, conversation)  # their memories and earlier turns are read from here on
        timings: dict[str, float] = {}
        started = time.perf_counter()
        try:
            context = self._prepare_turn(question, user, conversation, reader.readable)  # the turns they may read
        except ForeignConversation as exc:  # one row, as for another person's memories
            self._audit(actor, "refused", f"ask in {conversation}", "refused", str(exc))
            raise
        timings["rewrite_ms"] = _ms(started)
        if not context.asked:
            return self._acknowledge_only(context, user, remember, on_token)
        result = self._search_turn(context, role=role, actor=reader)
        asked = context.search_question
        if served := self._serve_standard_answer(asked, question, result, role=role, actor=reader, on_token=on_token,
                                                 count=traffic == "person"):  # an eval run is no hit of HR's answer
            served = self._finish_turn(served, user, context, [], on_token)  # not logged: its conversation deleted meanwhile
            return served if context.deleted_meanwhile else self._forget_if_gone(self._log_asked(served, user, role, traffic, asked_at), user)
        personal = self._personal_search(asked, result, user, role=role, actor=reader, timings=timings)
        result, memories, memory_search = personal.result, personal.memories, personal.memory_search
        built = build_prompt(asked, result.hits, memories, self._settings.token_budget, context.turns)
        memories = built.memories  # the trace, the answer step and the use count: only what the prompt holds
        self._count_used(user, memories)
        started = time.perf_counter()
        groups = {word: set(terms) for word, terms in result.synonym_groups.items()}
        # what the person told about themself (memories used) can pick the band a rule states for them
        closeness = self.second.closeness_over([h.chunk for h in result.hits]) if self.second is not None else None
        composed = compose_answer(asked, built, self.llm, on_token, groups, [m.content for m in memories], closeness,
                                  typed=context.asked)
        answer = composed.text
        timings["answer_ms"] = _ms(started)
        remembered: list[dict[str, str]] = []
        if remember and user and context.statement:  # a question alone is no fact about the person, whatever a model says
            started = time.perf_counter()
            remembered = self._remember_statement(user, context.statement, answer)  # the telling part only
            timings["write_back_ms"] = _ms(started)
        trace = AskTrace(
            question=question, answer=answer, search=result, memories=memories, prompt=built.text,
            sources=built.sources, prompt_tokens=built.tokens, token_budget=self._settings.token_budget,
            dropped_hits=built.dropped, answerer=composed.answerer, timings_ms=timings, citations=composed.citations,
            weak_evidence=composed.weak, outcome=composed.outcome, verdict=composed.verdict, memory_search=memory_search,
        )
        trace = self._finish_turn(trace, user, context, remembered, on_token)
        return trace if context.deleted_meanwhile else self._forget_if_gone(self._log_asked(trace, user, role, traffic, asked_at), user)

    def run_eval(self, path: str | Path, *, mode: str = "hybrid", role: str | None = None,
                 progress: Callable[[int, int], None] | None = None, actor: Principal | None = None,
                 shown: str | None = None) -> dict:
        """Recall / MRR / zero-hit rate per category on a JSONL question set (over what the actor may read); a
        logged-in person names one in the data dir (`_eval_source`), not any file on the server.

        `progress(done, total)`: questions done so far (before the first and after each). `shown`: the file's name
        in a refusal (an upload's own name)."""
        from .evaluation.runner import run_eval

        actor = self._acting(actor, "retrieval.test")
        return run_eval(self, self._eval_source(path, actor), mode=mode, role=role, actor=actor, progress=progress,
                        shown=shown)

def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
