"""Plain data records shared by every stage, the CLI and the pages: no behaviour, so none imports another."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ROLES: tuple[str, ...] = ("employee", "hr", "admin")
ROLE_NAMES: dict[str, str] = {"employee": "员工", "hr": "HR", "admin": "管理员"}
MEMORY_KIND_NAMES: dict[str, str] = {"profile": "个人信息", "preference": "偏好", "episode": "经历/事件", "interaction": "问答记录"}

# What became of one asked turn: decided where the answer is written, carried by the trace, read by all.
ANSWERED = "answered"  # quoted or written from evidence the search judged 依据充分
WEAK = "weak"  # answered, but only from 依据较弱 evidence (the answer says so)
REFUSED = "refused"  # 制度里没有写这一条: no hit, or the answerer found no clause that answers
STANDARD = "standard"  # HR's 标准答复 was served
ACKNOWLEDGED = "acknowledged"  # a statement about the person: remembered, nothing searched
OUTCOMES: tuple[str, ...] = (ANSWERED, WEAK, REFUSED, STANDARD, ACKNOWLEDGED)
STRONG_EVIDENCE, WEAK_EVIDENCE = "依据充分", "依据较弱"  # a hit's verdict (`HitScores.verdict`; "" for a near miss)
UNKNOWN_AUDIENCE: tuple[str, ...] = ("\0unknown",)  # a stored clause whose readers were not kept: shown to admins only
OFFLINE_ANSWERER = "extractive"  # `AskTrace.answerer` of the offline quoter; "extractive（大模型不可用：…）" after a model failed


def quoted_offline(answerer: str) -> bool:
    """The offline quoter assembled the answer from verbatim sentences (`AskTrace.answerer`): no model wrote its words."""
    return answerer.split("（")[0] == OFFLINE_ANSWERER


class Formatted(str):
    """A streamed answer piece whose markdown a page keeps (a model's reply, HR's 标准答复), as the stored turn does."""


class Record:
    """A record a page or the CLI turns into JSON as it is."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Principal:
    """Who acts. Every facade method that reads or changes data checks it.

    `audiences` are the document audience labels this person may read besides "all" (HR reads "hr" too; an
    administrator reads everything)."""

    user: str
    role: str = "employee"
    audiences: tuple[str, ...] = ()

    @property
    def readable(self) -> frozenset[str] | None:
        """Audience labels this person may read; None means every label."""
        if self.role == "admin":
            return None
        extra = {"hr"} if self.role == "hr" else set()
        return frozenset({"all", *extra, *self.audiences})

    def reading(self, audience: str | None = None) -> frozenset[str] | None:
        """What this person reads previewing one audience label ("all" plus it): never wider than `readable`."""
        preview = None if audience is None else frozenset({"all", audience})
        return self.readable if preview is None else preview if self.readable is None else self.readable & preview


@dataclass(frozen=True)
class Account(Record):
    """A person who may log in (never carries the password hash)."""

    name: str
    role: str
    audiences: tuple[str, ...] = ()
    email: str = ""
    disabled: bool = False
    locked_until: str = ""  # ISO-8601 UTC while locked after repeated failures, else ""
    failed_logins: int = 0
    created_at: str = ""

    @property
    def principal(self) -> Principal:
        return Principal(user=self.name, role=self.role, audiences=self.audiences)


@dataclass(frozen=True)
class AuditEntry(Record):
    """One row of the append-only audit trail."""

    id: int
    at: str  # ISO-8601 UTC
    actor: str
    role: str
    action: str  # e.g. login, document.upload, settings.change, refused
    target: str
    outcome: str  # ok, failed, locked, refused
    detail: str = ""


@dataclass(frozen=True)
class Section:
    """A run of text under one heading path, as found by a parser."""

    text: str
    path: str = ""  # e.g. "第三章 假期 > 第八条"; "" for text before any heading
    page: int | None = None  # 1-based PDF page, None for other formats
    table: bool = False  # record lines of one table ("header：value；…"), chunked in whole rows


@dataclass
class OcrPage:
    """One page (or image) read by OCR; a page below the confidence bar is reported, not indexed."""

    page: int
    confidence: float
    chars: int
    indexed: bool
    seconds: float = 0.0


@dataclass
class ReadingReport:
    """How a file was read: tables, sheets, OCR'd pages, page furniture dropped; `notes` say it in words."""

    tables: int = 0
    table_rows: int = 0
    sheets: list[str] = field(default_factory=list)
    hidden_sheets: list[str] = field(default_factory=list)
    ocr_pages: list[OcrPage] = field(default_factory=list)
    furniture_removed: int = 0
    furniture: list[str] = field(default_factory=list)  # each kind of dropped header/footer line once
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ParsedDocument:
    """What a parser returns: the title and the text split by structure."""

    source: str  # file name as uploaded (no directories)
    title: str
    sections: list[Section]
    encoding: str | None = None  # detected text encoding, for text formats
    reading: ReadingReport = field(default_factory=ReadingReport)

    @property
    def text(self) -> str:
        return "\n\n".join(s.text for s in self.sections)


@dataclass(frozen=True)
class Chunk:
    """One indexed unit of a document version."""

    chunk_id: str  # f"{doc_id}@v{version}#{index}"
    doc_id: str
    version: int
    index: int
    text: str
    source: str
    title: str
    section: str
    page: int | None = None
    audience: tuple[str, ...] = ("all",)  # UNKNOWN_AUDIENCE: readers not recorded (administrators only)
    content_hash: str = ""
    ingested_at: str = ""  # ISO-8601 UTC
    overlap_chars: int = 0  # leading characters repeated from the previous chunk


@dataclass
class HitScores:
    """Every number a hit earned; None where a retriever did not return it."""

    bm25: float = 0.0
    bm25_rank: int | None = None
    cosine: float | None = None
    cosine_rank: int | None = None
    fused: float = 0.0  # the decision's probability (what candidates are ordered by)
    fused_rank: int | None = None
    passed: str = ""  # the verdict that let it through ("" for a near miss)
    coverage: float = 0.0  # share of the query's IDF mass present in the chunk
    margin: float | None = None  # cosine minus the query's background cosine
    sentence_cosine: float | None = None  # the best single sentence's cosine (small-to-big)
    probability: float = 0.0  # that this chunk is evidence answering the question
    threshold: float = 0.0  # chunk probability a hit needs
    answerable: float = 0.0  # that the policies answer the question at all (same for every chunk of a search)
    verdict: str = ""  # 依据充分 / 依据较弱 / "" (near miss)
    missing: list[str] = field(default_factory=list)  # question words the chunk lacks
    why: str = ""  # one line in words: keywords found, closeness of meaning, what is missing
    features: dict[str, float] = field(default_factory=dict)  # the model's inputs, for the technical view


@dataclass
class Hit:
    chunk: Chunk
    scores: HitScores

    def to_dict(self) -> dict[str, Any]:
        c = self.chunk
        return {"doc_id": c.doc_id, "chunk_id": c.chunk_id, "version": c.version, "source": c.source, "title": c.title,
                "section": c.section, "page": c.page, "text": c.text, "scores": asdict(self.scores),
                "audience": list(c.audience)}  # who may read it: insights show a trace only to readers of every clause


_SEARCH_FIELDS = ("expanded_terms", "thesaurus", "threshold", "answerable", "unknown_share", "unknown_words",
                  "second_best", "second_reading", "foreign_subjects", "store_chunks", "timings_ms", "warnings")


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    near_misses: list[Hit] = field(default_factory=list)  # best chunks that failed the thresholds
    expanded_terms: list[str] = field(default_factory=list)  # thesaurus terms added to the keyword query
    thesaurus: list[str] = field(default_factory=list)  # the entries used, "口语词 → 制度用语"
    synonym_groups: dict[str, list[str]] = field(default_factory=dict)  # question word → terms that count as it
    threshold: float = 0.0  # question probability needed for any hit
    answerable: float = 0.0  # that the policies answer the question at all
    unknown_share: float = 0.0  # share of the question's weight in words the policies never use
    unknown_words: list[str] = field(default_factory=list)  # those words (a new topic, or only a new verb?)
    second_best: float | None = None  # the second model's highest cosine to any candidate (None: model off)
    second_reading: str = ""  # the question as the second model also read it, in the thesaurus's wording
    foreign_subjects: list[str] = field(default_factory=list)  # benefits named with a word no policy uses
    store_chunks: int = 0  # chunks the asker may see (a small store gets its own threshold)
    timings_ms: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def hit_count(self) -> int:
        return len(self.hits)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hit_count": self.hit_count,
            "hits": [h.to_dict() for h in self.hits],
            "near_misses": [h.to_dict() for h in self.near_misses],
            # store_chunks: 技术细节's 可见资料 after a reload
            **{name: getattr(self, name) for name in _SEARCH_FIELDS},
        }


@dataclass
class MemoryHit(Record):
    """A recalled memory with the numbers that selected it."""

    id: str
    content: str
    kind: str
    importance: float
    relevance: float
    freshness: float
    score: float
    created_at: str
    last_accessed: str | None = None
    access_count: int = 0


@dataclass
class SourceRef:
    """A numbered source as it appears in the prompt ([资料N])."""

    number: int
    text: str
    source: str
    section: str
    chunk_id: str
    verdict: str = ""  # the search's 依据充分 / 依据较弱 for this chunk ("" where none was given)


@dataclass
class CitationCheck(Record):
    """What the citation guard found in an LLM answer (the offline answerer only quotes, so it is not checked)."""

    checked: bool = False
    removed: list[int] = field(default_factory=list)  # [资料N] cited but not in the prompt, taken out of the answer
    unsupported: list[str] = field(default_factory=list)  # sentences whose numbers none of their cited clauses states


@dataclass
class AskTrace:
    """Everything that went into one answer, for display and audit."""

    question: str
    answer: str
    search: SearchResult
    memories: list[MemoryHit]
    prompt: str
    sources: list[SourceRef]
    prompt_tokens: int
    token_budget: int
    dropped_hits: int  # hits left out of the prompt by the token budget
    answerer: str  # OFFLINE_ANSWERER (maybe with why the model was not used) or the LLM model id
    timings_ms: dict[str, float] = field(default_factory=dict)
    citations: CitationCheck = field(default_factory=CitationCheck)
    search_question: str = ""  # what was searched: a follow-up rewritten standalone, else the question
    conversation: str | None = None  # the conversation this turn belongs to
    turn: int = 0  # its number in that conversation (0: not stored)
    acknowledged: list[dict[str, str]] = field(default_factory=list)  # memories this turn stored: {"id", "content"}
    # 标准答复 served instead of a composed answer: id, question, author, created_at, clauses, cosine
    standard_answer: dict[str, Any] | None = None
    weak_evidence: bool = False  # the answer rests on 依据较弱 evidence only (it says so; a gap for HR)
    outcome: str = ""  # one of OUTCOMES ("" only in a trace stored before outcomes were kept)
    followup: str = ""  # why the search question differs from the typed one, or why it does not ("" first turn)
    verdict: str = ""  # 可以 / 不可以 the offline answer states for a yes/no question ("" otherwise)
    memory_search: str = ""  # what was searched with the asker's memories added, when that search was used
    engine_tail: str = ""  # the engine's line after the answer (a statement's acknowledgement): shown as typed, never formatted

    @property
    def hit_count(self) -> int:
        return self.search.hit_count

    @property
    def quoted_offline(self) -> bool:
        return quoted_offline(self.answerer)

    def to_dict(self) -> dict[str, Any]:
        out = self.search.to_dict()
        out.update(
            {
                "question": self.question,
                "answer": self.answer,
                "prompt": self.prompt,
                "prompt_tokens": self.prompt_tokens,
                "token_budget": self.token_budget,
                "dropped_hits": self.dropped_hits,
                "answerer": self.answerer,
                "memories": [m.to_dict() for m in self.memories],
                "sources": [asdict(s) for s in self.sources],
                "citations": self.citations.to_dict(),
                "search_question": self.search_question or self.question,
                "conversation": self.conversation, "turn": self.turn, "acknowledged": self.acknowledged,
                "standard_answer": self.standard_answer, "weak_evidence": self.weak_evidence,
                "outcome": self.outcome, "followup": self.followup, "verdict": self.verdict, "memory_search": self.memory_search,
                "engine_tail": self.engine_tail,
                "timings_ms": {**out["timings_ms"], **self.timings_ms},
            }
        )
        return out


@dataclass
class IngestReport(Record):
    """What happened to one uploaded file; `error` is a plain Chinese reason when refused."""

    filename: str
    status: str  # "indexed" | "unchanged" | "refused"
    doc_id: str = ""
    version: int = 0
    chunk_count: int = 0
    audience: tuple[str, ...] = ("all",)
    redactions: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    reading: ReadingReport | None = None  # how the file was read (tables, OCR, furniture)
    conflict_doc_id: str = ""  # refused: the name maps onto this existing document (ask, then pass doc_id)

    @property
    def ok(self) -> bool:
        return self.status != "refused"


@dataclass
class VersionChange(Record):
    """One version of a document and what changed from the version before it (for the history view)."""
    version: int
    status: str  # "current" | "retired" | "scheduled" | "pending"
    ingested_at: str
    chunk_count: int
    is_current: bool  # the version search uses today
    known: bool = True  # False when the text of this or the previous version was never recorded
    added: int = 0  # chunks whose text is new in this version
    removed: int = 0  # chunks of the previous version whose text is gone
    unchanged: int = 0
    diff: list[str] = field(default_factory=list)  # a short line diff: "- old", "+ new"
    source: str = ""  # the file this version came from
    effective_date: str | None = None
    audience: tuple[str, ...] = ()  # who may read this version (labels); () when the builder did not say
    title: str = ""  # a version may change only its title (a Word file's 标题): the history says so


@dataclass
class DocumentInfo(Record):
    """One document's current version, as listed on the documents page."""

    doc_id: str
    title: str
    source: str
    version: int
    audience: tuple[str, ...]
    chunk_count: int
    ingested_at: str
    content_hash: str = ""
    effective_date: str | None = None
    status: str = "current"  # "current" | "retired" | "scheduled"


@dataclass
class DeletePreview:
    """What deleting `doc_id` takes with it, as the actor may see it."""

    doc_id: str
    versions: int = 0  # the versions the actor may read: every one goes, with the version history
    held: list[str] = field(default_factory=list)  # the questions of the standard answers it would hold (readable)
