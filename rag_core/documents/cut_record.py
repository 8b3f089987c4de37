"""Which chunk size and overlap a stored version was cut at, read back from what the catalog records.

The catalog keeps no chunk size per version, but a version's `content_hash` is the digest of its chunks' text
and the size and overlap they were cut at (`prepare._prepared`). Hashing the stored text with the settings in
force therefore tells whether the version was cut with them: a re-cut that failed (the Chroma server down)
leaves versions at the old size, and the settings page offers 重新切块 until none is left.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from ..types import Chunk, DocumentInfo


def cut_digest(texts: Iterable[str], chunk_size: int, chunk_overlap: int) -> str:
    """The digest `prepare` records as a version's content_hash: its chunk texts and the cut's size and overlap."""
    return hashlib.sha256(("\x1e".join(texts) + f"|{chunk_size}|{chunk_overlap}").encode("utf-8")).hexdigest()


def cut_elsewhere(info: DocumentInfo, chunks: Sequence[Chunk], chunk_size: int, chunk_overlap: int) -> bool:
    """True when `info` (with its stored `chunks`, in order) was cut at another chunk size or overlap."""
    if not chunks:
        return False
    return cut_digest((c.text for c in chunks), chunk_size, chunk_overlap) != info.content_hash
