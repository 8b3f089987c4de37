"""清空全部记忆 with a damaged conversation store: the memories go, and the person is told that the turns that
used them could not be rewritten (stop 58 left this reported as a plain success)."""

from __future__ import annotations

import argparse

from test_pages_damaged_stores import LOCAL, damaged, open_page

from rag_core.cli.memory import purge_memories as purge_command


def test_the_facade_says_the_turns_were_not_rewritten(tmp_path):
    a = damaged(tmp_path, "conversations.sqlite3")
    done = a.purge_memories("local", actor=LOCAL)
    assert done.count == 1 and done.turns_failed and done.turns == 0
    assert a.list_memories("local", actor=LOCAL) == []
    assert "未能删除" in a.audit_entries(action="memory.purge", actor=LOCAL)[0].detail


def test_a_sound_store_reports_no_failure(tmp_path):
    a = damaged(tmp_path, "standard_answers.sqlite3")  # some other store garbled: the conversations are sound
    done = a.purge_memories("local", actor=LOCAL)
    assert done.count == 1 and not done.turns_failed


def test_the_memories_page_warns_instead_of_a_plain_success(tmp_path, monkeypatch):
    a = damaged(tmp_path, "conversations.sqlite3")
    at = open_page(a, tmp_path, monkeypatch, "pages/memories.py")
    next(b for b in at.button if b.label == "清空全部记忆").click().run()
    next(b for b in at.button if b.label == "确认清空").click().run()
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    assert any("未能删除" in w.value for w in at.warning)
    assert not any("已清空" in s.value for s in at.success)


def test_the_command_line_exits_non_zero_and_says_why(tmp_path, capsys):
    a = damaged(tmp_path, "conversations.sqlite3")
    assert purge_command(argparse.Namespace(user="local"), a) == 1
    out = capsys.readouterr()
    assert "1 条记忆" in out.out and "未能删除" in out.err
