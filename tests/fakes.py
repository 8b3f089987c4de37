"""Test doubles shared by the fast tests: a deterministic embedder and an LLM with queued replies.

Neither loads a model nor opens a socket, so facade and CLI logic run in
milliseconds on them. The real e5 model and a real (stub) endpoint stay in the
`integration` tests.
"""

from __future__ import annotations

import zlib
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.assistant import Assistant
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
