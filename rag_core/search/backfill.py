"""Rows a store built before an index existed (or one that lost its file) is missing: written at start.

Split from `search.indexer` (kept under the 400-line limit), which still re-exports these names.
"""

from __future__ import annotations

from collections.abc import Callable

from ..documents.catalog import Catalog
from ..documents.prepare import index_text
from ..types import Chunk
from .embedding import CachedEmbedder
from .sentence_index import SecondModel, SentenceIndex, vector_rows


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
