"""Test doubles shared by the fast tests: a deterministic embedder and an LLM with queued replies.

Neither loads a model nor opens a socket, so facade and CLI logic run in
milliseconds on them. The real e5 model and a real (stub) endpoint stay in the
`integration` tests.
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import json
import secrets
import shutil
import sqlite3
import tempfile
import uuid
import zlib
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.assistant import Assistant
from rag_core.documents.catalog import office_today
from rag_core.settings import Settings

FAKE_ANSWER_THRESHOLD = 0.1


class BigramEmbedder:
    """Character bigrams hashed into 64 dimensions, L2-normalised.

    Texts that share characters get a high cosine, as with a real model, and the
    same text always gets the same vector: crc32 rather than `hash()`, which is
    salted per process. A leading space makes even a one-character text a bigram.
    """

    model_id = "fake-bigrams-64"
    dim = 64

    def __init__(self) -> None:
        self.passages_embedded = 0
        self.queries: list[str] = []

    def vector(self, text: str) -> np.ndarray:
        """The (dim,) unit vector of one text."""
        padded = " " + "".join(text.lower().split())
        counts = np.zeros(self.dim, dtype=np.float32)
        for start in range(len(padded) - 1):
            counts[zlib.crc32(padded[start : start + 2].encode("utf-8")) % self.dim] += 1.0
        if not counts.any():  # the empty text
            counts[0] = 1.0
        return counts / np.linalg.norm(counts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages_embedded += len(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self.vector(text) for text in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self.vector(text)


class NearEmbedder(BigramEmbedder):
    """Bigram vectors with a large shared part: any two texts are near duplicates (cosine above 0.96), so only
    the terms tell them apart (the memory store's restatement tests). Its own model id: other vectors, so the
    memory store's per-process background centres (`_CENTRES`, keyed by model) are not shared with BigramEmbedder's
    (a later test's bigram store read these centres and recalled a colleague's fact)."""

    model_id = "fake-near-64"

    def vector(self, text: str) -> np.ndarray:
        v = super().vector(text) + 5.0 * np.eye(self.dim, dtype=np.float32)[0]
        return v / np.linalg.norm(v)


class NoReplyQueued(LookupError):
    """The fake LLM was called more often than the test queued replies for."""


class QueuedLLM:
    """An LLM that answers with the replies queued by `enqueue`, in order, and records every prompt.

    Implements `LLMClient` (name, complete, stream). A call with nothing queued
    raises `NoReplyQueued`, so an unexpected model call fails the test instead of
    returning an empty answer that might still pass it.
    """

    name = "queued-fake"

    def __init__(self, *replies: str, piece_chars: int = 4) -> None:
        self.replies: deque[str] = deque(replies)
        self.prompts: list[str] = []
        self.piece_chars = piece_chars

    def enqueue(self, text: str) -> QueuedLLM:
        """Queue the reply to the next call; returns self so calls chain."""
        self.replies.append(text)
        return self

    def complete(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self._next_reply()

    def stream(self, prompt: str) -> Iterator[str]:
        """The next reply in pieces of `piece_chars`; the prompt is recorded at the call, not on iteration."""
        self.prompts.append(prompt)
        reply = self._next_reply()
        return iter([reply[start : start + self.piece_chars] for start in range(0, len(reply), self.piece_chars)])

    def _next_reply(self) -> str:
        if not self.replies:
            raise NoReplyQueued(f"{self.name}: no reply queued for call {len(self.prompts)}")
        return self.replies.popleft()


def fake_assistant(
    data_dir: str | Path, *, llm: QueuedLLM | None = None, embedder: BigramEmbedder | None = None, **overrides: Any
) -> Assistant:
    """A facade on real Chroma and SQLite in `data_dir`, with the fake embedder and the shipped decision.

    The decision was fitted on e5's signals; the bigram vectors carry little meaning, so
    the question step is lowered to `FAKE_ANSWER_THRESHOLD` (a question sharing a rare
    word with a policy passes, one in words no policy uses does not). No environment
    and no `.env` are read; `overrides` are Settings fields.
    """
    settings = Settings(data_dir=Path(data_dir), **{"answer_threshold": FAKE_ANSWER_THRESHOLD, **overrides})
    settings.validate()
    return Assistant(settings, embedder=embedder or BigramEmbedder(), llm=llm)


# -- the sample policies, indexed once per process ---------------------------------------------------------------
# Indexing the eight samples costs about 0.26 s of CPU (chunking, jieba, Chroma writes); over a hundred fast tests
# want them. Each process indexes them once per set of settings that indexing reads (`template_key`) into a
# template data dir, and every test gets a private copy of it: about 0.05 s.

# Settings the indexing of the samples never reads: a template built without them serves every value of them.
NOT_READ_BY_INDEXING = frozenset({
    "answer_threshold", "memory_threshold", "memory_top_k", "question_retention_days", "token_budget",
    "llm_api_key", "llm_model_id",
})
TEMPLATE_ROOT: Path | None = None  # set by tests/conftest.py (a session-scoped pytest temp dir); else a temp dir
TEMPLATES: dict[tuple, Path] = {}  # template_key -> its data dir (shared by tests/conftest.py)


def fake_assistant_with_samples(
    data_dir: str | Path, *, llm: QueuedLLM | None = None, embedder: BigramEmbedder | None = None, **overrides: Any
) -> Assistant:
    """`fake_assistant(data_dir, ...)` on which `ensure_samples()` already ran: a fresh store with the samples.

    `data_dir` (new) gets a copy of this process's template for these settings: the same catalog, keyword
    index, Chroma vectors, embedding cache, `samples_seeded` row and audit rows that a fresh `ensure_samples()`
    leaves, under a store id of its own. A test's own `embedder` (a BigramEmbedder: the same vectors) has
    embedded none of the samples' passages. Tests about the seeding itself call `ensure_samples()` instead.
    """
    data_dir = Path(data_dir)
    if data_dir.exists() or (embedder is not None and type(embedder) is not BigramEmbedder):
        # an existing store is not replaced, another embedder makes other vectors: indexed as ensure_samples does
        assistant = fake_assistant(data_dir, llm=llm, embedder=embedder, **overrides)
        assistant.ensure_samples()
        return assistant
    template = _template(overrides)
    shutil.copytree(template, data_dir)
    _new_store_id(data_dir)
    return fake_assistant(data_dir, llm=llm, embedder=embedder, **overrides)


def template_key(overrides: dict[str, Any]) -> tuple:
    """What a template stands for: the settings indexing reads, and the day (dates are stored as of today)."""
    indexing = {name: value for name, value in overrides.items() if name not in NOT_READ_BY_INDEXING}
    timezone = Settings(**indexing).timezone
    return tuple(sorted((name, repr(value)) for name, value in indexing.items())), office_today(timezone)


def _template(overrides: dict[str, Any]) -> Path:
    global TEMPLATE_ROOT
    key = template_key(overrides)
    if key not in TEMPLATES:
        if TEMPLATE_ROOT is None:  # outside the test session's fixtures: a temp dir of its own, removed at exit
            TEMPLATE_ROOT = Path(tempfile.mkdtemp(prefix="hr-sample-templates-"))
            atexit.register(shutil.rmtree, TEMPLATE_ROOT, ignore_errors=True)
        path = TEMPLATE_ROOT / f"samples-{len(TEMPLATES)}"
        assistant = fake_assistant(path, **{name: value for name, value in overrides.items()
                                            if name not in NOT_READ_BY_INDEXING})
        reports = assistant.ensure_samples()
        assert reports and all(report.ok for report in reports), [report.error for report in reports]
        assistant.catalog.close()
        TEMPLATES[key] = path
    return TEMPLATES[key]


def _new_store_id(data_dir: Path) -> None:
    """A copy is another store: its own store id (its Chroma collections renamed to it, as `_store_id` names them)
    and its own file-name secret (`documents.name_keys`: the samples' name keys made again with it)."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    new = uuid.uuid4().hex[:12]
    with sqlite3.connect(data_dir / "catalog.sqlite3") as db:
        (old,) = db.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
        db.execute("UPDATE meta SET value = ? WHERE key = 'store_id'", (new,))
        _new_name_secret(db)
    db.close()
    # the settings the store opens Chroma with (vector_store.ChromaVectorStore): the process shares this client
    client = chromadb.PersistentClient(path=str(data_dir / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    for collection in client.list_collections():
        name = getattr(collection, "name", collection)
        if old in name:
            client.get_collection(name).modify(name=name.replace(old, new))


def _new_name_secret(db: sqlite3.Connection) -> None:
    """A fresh secret for `NameKeys`, and each sample's key of its file name made again with it (NameKeys.key)."""
    from rag_core.documents.name_keys import KEYS_META, SECRET_META
    from rag_core.facade.samples import SAMPLES_DIR
    from rag_core.search.sample_pack import sample_files

    def key(secret: str, name: str) -> str:
        return hmac.new(bytes.fromhex(secret), name.encode("utf-8"), hashlib.sha256).hexdigest()

    (old,) = db.execute("SELECT value FROM meta WHERE key = ?", (SECRET_META,)).fetchone()
    new = secrets.token_hex(32)
    renamed = {key(old, path.name): key(new, path.name) for path in sample_files(SAMPLES_DIR)}
    rows = db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (KEYS_META + "%",)).fetchall()
    for name, value in rows:
        keys = json.loads(value)
        assert set(keys) <= renamed.keys(), f"{name}: a key of no sample file name (NameKeys changed?)"
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(sorted(renamed[k] for k in keys)), name))
    db.execute("UPDATE meta SET value = ? WHERE key = ?", (new, SECRET_META))
