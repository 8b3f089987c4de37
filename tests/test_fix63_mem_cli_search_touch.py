"""Review 63 (memory) #4: `memory search` (someone looking, from the CLI) is no use of the memories: their access
count and last use stay as they were. Only chat counts the memories its prompt held (`_count_used`)."""

from __future__ import annotations

import argparse

from fakes import fake_assistant

from rag_core.cli.memory import search_memories


def _uses(a, user):
    return [(m.access_count, m.last_accessed) for m in a.list_memories(user)]


def test_memory_search_from_the_cli_records_no_use(tmp_path, capsys):
    a = fake_assistant(tmp_path / "store")
    a.remember("lina", "我常驻杭州")
    before = _uses(a, "lina")
    for _ in range(2):
        assert search_memories(argparse.Namespace(user="lina", query="我常驻杭州", json=True), a) == 0
    assert "常驻杭州" in capsys.readouterr().out  # it was found, and shown
    assert _uses(a, "lina") == before


def test_the_facade_recall_records_no_use_unless_asked(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.remember("lina", "我常驻杭州")
    before = _uses(a, "lina")
    assert a.recall("lina", "我常驻杭州")
    assert _uses(a, "lina") == before
    a.recall("lina", "我常驻杭州", touch=True)
    assert _uses(a, "lina")[0][0] == before[0][0] + 1
