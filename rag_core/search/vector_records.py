"""The records the vector store reads and writes: a match, a question's scope, a read-back report, and the keys,
metadata and collection names of stored chunks (`vector_store` holds the store itself and re-exports these)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..types import Chunk


@dataclass
class VectorMatch:
    chunk_id: str
    cosine: float


@dataclass(frozen=True)
class VectorScope:
    """Which stored vectors one question may see.

    `audiences`: the partitions to search (None: all of them). `hidden_keys`:
    document versions stored in those partitions that must not be returned,
    `hidden_chunks` how many chunks they hold (the over-fetch that keeps the
    top n exact), and `hidden_audiences` the partitions that hold them (None:
    any of them may) — the others are queried plainly.
    """

    audiences: frozenset[tuple[str, ...]] | None = None
    hidden_keys: frozenset[str] = frozenset()
    hidden_chunks: int = 0
    hidden_audiences: frozenset[tuple[str, ...]] | None = None

    def hides_in(self, audience: tuple[str, ...]) -> bool:
        return bool(self.hidden_keys) and (self.hidden_audiences is None or audience in self.hidden_audiences)


EVERYTHING = VectorScope()


@dataclass
class VectorCheck:
    """What a full read-back of the store found: records checked, re-written, and still unreachable."""

    checked: int = 0
    rewritten: int = 0
    unreachable: list[str] = field(default_factory=list)


def doc_key(doc_id: str, version: int) -> str:
    """One value per document version, used to filter to visible versions before scoring."""
    return f"{doc_id}@v{version}"


def key_of_chunk(chunk_id: str) -> str:
    """The document version a chunk id belongs to ("doc@v2#7" → "doc@v2")."""
    return chunk_id.rsplit("#", 1)[0]


def _metadata(c: Chunk) -> dict:
    meta = {
        "doc_id": c.doc_id,
        "version": c.version,
        "doc_key": doc_key(c.doc_id, c.version),
        "chunk_id": c.chunk_id,
        "source": c.source,
        "title": c.title,
        "section": c.section,
        "audience": "," + ",".join(c.audience) + ",",
        "content_hash": c.content_hash,
        "ingested_at": c.ingested_at,
    }
    if c.page is not None:
        meta["page"] = c.page
    return meta


def partition_suffix(audience: tuple[str, ...]) -> str:
    """Collection-name suffix of an audience ("" for everyone: the base collection)."""
    if tuple(audience) == ("all",):
        return ""
    return "_a" + hashlib.sha1(",".join(audience).encode("utf-8")).hexdigest()[:10]
