"""A stored trace reads back as it was shown: 技术细节 after a reload says what it said before."""

from __future__ import annotations

from rag_core.conversations.records import search_from_dict
from rag_core.types import SearchResult


def test_the_visible_chunk_count_survives_a_reload() -> None:
    result = SearchResult(query="年假有几天？", hits=[], answerable=0.9, unknown_share=0.1, store_chunks=130)
    again = search_from_dict(result.to_dict())
    assert again.store_chunks == 130
    assert (again.query, again.answerable, again.unknown_share) == ("年假有几天？", 0.9, 0.1)


def test_a_trace_stored_before_the_count_was_kept_still_reads() -> None:
    stored = SearchResult(query="年假有几天？", hits=[]).to_dict()
    stored.pop("store_chunks")
    assert search_from_dict(stored).store_chunks == 0
