"""Sentence vectors per chunk, for small-to-big matching: match a sentence, return its chunk.

A long article (第二十四条 职工有下列情形之一的……（五）出境定居的；……) has one
chunk vector that averages all its items, so 移民去国外 hardly moves it; the
sentence "（五）出境定居的" alone does. Each sentence is embedded with its
context (title, section and the chunk's lead sentence), so an enumerated item
still says what it is an item of. Vectors live in their own SQLite file as
float16, one row per chunk holding the chunk's own vector and its sentences'
matrix, written by the indexer with the chunk and removed with it; search reads
only the candidates' rows (so a keyword-only candidate gets its cosine without
another Chroma call).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from ..storage.cache_damage import fresh_in_memory, is_damage, open_cache
from ..text.sentences import split_sentences
from ..types import Chunk
from .embedding import CachedEmbedder

T = TypeVar("T")
# Every start counts this model's rows and drops other models' (`backfill_rows`): without an index on the model each
# is a scan of the whole table and its blobs (60 MB for the second model at 10k).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (chunk_id TEXT PRIMARY KEY, model TEXT NOT NULL, dim INTEGER NOT NULL,
    chunk BLOB NOT NULL, sentences BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS vectors_by_model ON vectors (model, chunk_id);
"""

MAX_SENTENCES = 24  # per chunk; a chunk is ~240 characters, so this is never reached by prose
LEAD_MAX_CHARS = 80  # a lead sentence longer than this is itself content, not a list header


def sentence_texts(chunk: Chunk) -> list[str]:
    """What is embedded for each sentence of a chunk (empty for a one-sentence chunk: its chunk vector is the sentence)."""
    sentences = split_sentences(chunk.text)[:MAX_SENTENCES]
    if len(sentences) < 2:
        return []
    head = " ".join(p for p in (chunk.title, chunk.section) if p)
    lead = sentences[0]
    out = []
    for number, sentence in enumerate(sentences):
        context = f"{head} {lead} {sentence}" if number and len(lead) <= LEAD_MAX_CHARS else f"{head} {sentence}"
        out.append(context.strip())
    return out


class SentenceIndex:
    """chunk id → (chunk vector, sentence matrix or None); thread-safe, one connection per process."""

    def __init__(self, path: Path, model_id: str):
        self.path = Path(path)
        self.model_id = model_id
        self._lock = threading.Lock()
        # `damaged`: the store notice once a use met the file damaged (`storage.cache_damage`)
        self._db, self.damaged = open_cache(self.path, _SCHEMA, isolation_level=None)

    def _in_memory(self, exc: BaseException) -> None:
        """The file is damaged: an empty index in memory for this process (the backfill refills it)."""
        self._db, self.damaged = fresh_in_memory(self.path, exc, _SCHEMA)

    def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` on the connection under the lock; once more on an empty index in memory when the file is damaged."""
        with self._lock:
            try:
                return work(self._db)
            except sqlite3.DatabaseError as exc:
                if not is_damage(exc) or self.damaged:
                    raise
                self._in_memory(exc)
                return work(self._db)

    def put(self, items: Iterable[tuple[str, np.ndarray, np.ndarray | None]]) -> None:
        """Store (chunk id, chunk vector, sentence matrix or None) rows, replacing what was there."""
        rows = [
            (
                chunk_id, self.model_id, int(vector.shape[-1]), vector.astype(np.float16).tobytes(),
                b"" if sentences is None or not len(sentences) else sentences.astype(np.float16).tobytes(),
            )
            for chunk_id, vector, sentences in items
        ]
        self._run(lambda db: db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?)", rows))

    def get(self, chunk_ids: Sequence[str]) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
        """(chunk vector, sentence matrix or None) as float32 for the ids that have a row for this model."""
        return {
            chunk_id: (rows[0].astype(np.float32), rows[1:].astype(np.float32) if len(rows) > 1 else None)
            for chunk_id, rows in self.stacked(chunk_ids).items()
        }

    def stacked(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Each chunk's rows as stored (float16): its vector, then its sentences' (half of `get`'s memory, kept
        between questions by search; `astype(np.float32)` of them gives `get`'s numbers)."""
        ids = list(dict.fromkeys(chunk_ids))

        def read(db: sqlite3.Connection) -> dict[str, np.ndarray]:
            out: dict[str, np.ndarray] = {}
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                marks = ",".join("?" * len(part))
                for chunk_id, dim, chunk, sentences in db.execute(
                    f"SELECT chunk_id, dim, chunk, sentences FROM vectors WHERE model = ? AND chunk_id IN ({marks})",
                    [self.model_id, *part],
                ):
                    out[chunk_id] = np.frombuffer(chunk + (sentences or b""), dtype=np.float16).reshape(-1, dim)
            return out

        return self._run(read)

    def delete(self, chunk_ids: Iterable[str]) -> None:
        ids = list(chunk_ids)
        self._run(lambda db: db.executemany("DELETE FROM vectors WHERE chunk_id = ?", [(i,) for i in ids]))

    def ids(self) -> set[str]:
        """Chunk ids with a row for this model."""
        return self._run(lambda db: {row[0] for row in db.execute("SELECT chunk_id FROM vectors WHERE model = ?",
                                                                   [self.model_id])})

    def count(self) -> int:
        """Rows for this model."""
        return self._run(lambda db: db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", [self.model_id]).fetchone()[0])

    def drop_other_models(self) -> None:
        # two ranges of the index, where "!=" would scan the table
        self._run(lambda db: db.execute("DELETE FROM vectors WHERE model < ? OR model > ?", [self.model_id, self.model_id]))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def vector_rows(
    chunks: Sequence[Chunk], chunk_vectors: np.ndarray, embed_passages, texts_of=sentence_texts
) -> list[tuple[str, np.ndarray, np.ndarray | None]]:
    """Rows for `SentenceIndex.put`: each chunk's vector and, for chunks of two or more sentences, their matrix.

    All sentences of the batch are embedded in one call.
    """
    texts_per_chunk = [texts_of(c) for c in chunks]
    flat = [t for texts in texts_per_chunk for t in texts]
    vectors = embed_passages(flat) if flat else None
    out, start = [], 0
    for chunk, vector, texts in zip(chunks, chunk_vectors, texts_per_chunk, strict=True):
        matrix = None
        if texts and vectors is not None:
            matrix = vectors[start : start + len(texts)]
            start += len(texts)
        out.append((chunk.chunk_id, vector, matrix))
    return out


def _short_heading(chunk: Chunk) -> str:
    return " ".join(p for p in (chunk.title, chunk.section.split(">")[-1].strip()) if p)


def second_chunk_text(chunk: Chunk) -> str:
    """What the second model embeds for a chunk: the title and the nearest heading, then the text."""
    return f"{_short_heading(chunk)}\n{chunk.text}"


def _second_sentences(chunk: Chunk) -> list[str]:
    """The sentences the second model has a row for, in row order."""
    return [s for s in split_sentences(chunk.text) if len(s) >= 4][:MAX_SENTENCES]


def second_sentence_texts(chunk: Chunk) -> list[str]:
    """What the second model embeds per sentence: the short heading and the sentence alone (no lead)."""
    return [f"{_short_heading(chunk)}\n{s}" for s in _second_sentences(chunk)]


@dataclass
class SecondModel:
    """A second bundled model's vectors of every chunk and its sentences, in a file of their own.

    Search reads them as ranking features (its cosines as z-scores within the question's candidates);
    the indexer writes and removes its rows with the chunk's other rows. The offline answer asks it how
    close each sentence it may quote is to the question (`closeness_over`).
    """

    embedder: CachedEmbedder
    index: SentenceIndex

    def rows(self, chunks: Sequence[Chunk]) -> list[tuple[str, np.ndarray, np.ndarray | None]]:
        vectors = self.embedder.embed_passages([second_chunk_text(c) for c in chunks])
        return vector_rows(chunks, vectors, self.embedder.embed_passages, second_sentence_texts)

    def closeness_over(self, chunks: Sequence[Chunk]) -> Callable[[str, Sequence[str]], list[float]]:
        """How close each sentence of these chunks is to a question (the offline answer's lead), from the
        rows ingest stored (heading + sentence, `second_sentence_texts`): 0.15 ms per answer against 4 ms
        for embedding the sentences anew. A sentence without a row (one under four characters) is embedded
        the same way, with its chunk's heading; the question's vector is search's. Read on the first call
        only (an LLM answer makes none). A store that cannot be read gives no preference (all equal), so
        the words alone choose: the answer never fails for it."""
        known: dict[str, np.ndarray] = {}
        heading: dict[str, str] = {}

        def read_rows() -> None:
            rows = self.index.stacked([c.chunk_id for c in chunks])
            for chunk in chunks:
                sentences = [s.strip() for s in _second_sentences(chunk)]
                stored = rows.get(chunk.chunk_id)
                if stored is not None and len(stored) == len(sentences) + 1:
                    for text, vector in zip(sentences, stored[1:], strict=True):
                        known.setdefault(text, vector.astype(np.float32))
                for text in split_sentences(chunk.text):
                    heading.setdefault(text.strip(), _short_heading(chunk))

        def closeness(question: str, texts: Sequence[str]) -> list[float]:
            try:
                if not heading:
                    read_rows()
                missing = [t for t in dict.fromkeys(texts) if t not in known]
                if missing:
                    vectors = self.embedder.inner.embed_passages([f"{heading.get(t, '')}\n{t}" for t in missing])
                    known.update(zip(missing, vectors, strict=True))
                question_vector = self.embedder.embed_query(question)
                return [float(known[t] @ question_vector) for t in texts]
            except (sqlite3.Error, ValueError, KeyError):
                return [0.0] * len(texts)

        return closeness

    def close(self) -> None:
        self.index.close()
        self.embedder.close()
