"""Review 56 (memory), with real e5: a restatement that says more keeps its detail (e5 puts both wordings above the
dedup cosine, so the old row took the restatement and kept its vaguer text)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from memory_support import e5

from rag_core.memory import MemoryStore

pytestmark = pytest.mark.slow
NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)


@pytest.mark.parametrize(("first", "second", "kept"), [
    ("我怀孕了", "我怀孕7个月了", ["用户怀孕7个月了"]),
    ("我对花生过敏", "我对花生和芒果过敏", ["用户对花生和芒果过敏"]),
    ("我老婆怀孕了", "我老婆怀孕了，预产期是十月", ["用户老婆怀孕了，预产期是十月"]),
    ("我常驻杭州", "我在杭州上班", ["用户常驻杭州"]),
])
def test_the_row_takes_the_more_detailed_wording(tmp_path, first, second, kept):
    store = MemoryStore(tmp_path / "m.sqlite3", e5())
    store.told_facts("u", first, "", now=NOW - timedelta(days=3))
    told = store.told_facts("u", second, "", now=NOW)
    assert [action for _, action, _ in told] == ["strengthened"]
    assert [m.content for m in store.list("u", now=NOW)] == kept
    store.close()
