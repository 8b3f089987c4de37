"""Review 52k #5: undoing a restatement takes back the restatement, not the fact told weeks earlier."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from fakes import fake_assistant


def test_undo_of_a_restatement_keeps_the_old_fact_as_it_was(tmp_path):
    a = fake_assistant(tmp_path / "s")
    first = a.ask("我常驻杭州", conversation="c1")
    [told] = first.acknowledged
    weeks_ago = (datetime.now(UTC) - timedelta(days=21)).isoformat(timespec="seconds")
    with sqlite3.connect(a.settings.path("memory.sqlite3")) as conn:  # told three weeks ago
        conn.execute("UPDATE memories SET created_at = ? WHERE id = ?", (weeks_ago, told["id"]))
        conn.execute("UPDATE memory_history SET at = ? WHERE memory_id = ? AND action = 'added'", (weeks_ago, told["id"]))
    before = a.memory.get(told["id"])
    again = a.ask("我常驻杭州", conversation="c2")
    assert [m["id"] for m in again.acknowledged] == [told["id"]]
    strengthened = a.memory.get(told["id"])
    assert strengthened.importance > before.importance and strengthened.created_at > before.created_at
    assert a.undo_acknowledged("c2", again.turn) == 1
    [kept] = a.list_memories("local")
    assert kept.id == told["id"] and kept.content == "用户常驻杭州"
    after = a.memory.get(told["id"])
    assert (after.importance, after.created_at, after.deleted) == (before.importance, before.created_at, False)
    assert any(h["action"] == "unstrengthened" for h in a.memory.history("local", told["id"]))
    answer = a.get_conversation("c2").turns[0].answer  # says the fact told before stays, not that it was deleted
    assert "1 条以前就记住了，保留以前的记录" in answer and "已删除" not in answer


def test_undoing_the_first_statement_after_its_restatement_was_undone_deletes_it(tmp_path):
    a = fake_assistant(tmp_path / "s")
    first = a.ask("我常驻杭州", conversation="c1")
    again = a.ask("我常驻杭州", conversation="c2")
    a.undo_acknowledged("c2", again.turn)
    assert len(a.list_memories("local")) == 1
    assert a.undo_acknowledged("c1", first.turn) == 1
    assert a.list_memories("local") == []


def test_undoing_twice_takes_back_one_restatement_only(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", conversation="c1")
    second = a.ask("我常驻杭州", conversation="c2")
    mid = second.acknowledged[0]["id"]
    after_second = a.memory.get(mid)
    third = a.ask("我常驻杭州", conversation="c3")
    assert a.memory.get(mid).importance > after_second.importance
    assert a.undo_acknowledged("c3", third.turn) == 1
    assert a.undo_acknowledged("c3", third.turn) == 0  # a second click: the turn's acknowledgement is gone
    now = a.memory.get(mid)
    assert abs(now.importance - after_second.importance) < 0.005  # the history keeps two decimals
    assert now.created_at == after_second.created_at and not now.deleted
