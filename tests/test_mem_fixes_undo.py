"""Undoing a statement gives back what it replaced; an administrator's reading of memories is audited."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core import Principal


def memories(a, user="local") -> list[str]:
    return [m.content for m in a.list_memories(user)]


def test_undo_of_a_replacing_statement_restores_the_old_fact(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ask("我在财务部工作", conversation="c1")
    trace = a.ask("我调到了人事部", conversation="c1")
    assert memories(a) == ["用户在人事部工作"]
    assert a.undo_acknowledged("c1", trace.turn) == 1
    assert memories(a) == ["用户在财务部工作"]
    assert any(h["action"] == "restored" for h in a.memory.history("local"))


def test_undo_of_a_plain_statement_restores_nothing(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ask("我在财务部工作", conversation="c1")
    trace = a.ask("我对花生过敏", conversation="c1")
    a.undo_acknowledged("c1", trace.turn)
    assert memories(a) == ["用户在财务部工作"]


def test_an_administrator_reading_someones_memories_is_audited(tmp_path):
    a = fake_assistant(tmp_path / "store")
    admin = Principal("wang", "admin")
    a.remember("zhang", "用户怀孕了", actor=admin)
    a.list_memories("zhang", actor=admin)
    a.list_memories("wang", actor=admin)  # one's own: no row
    a.forget_memories(0, user="zhang", actor=admin)  # forgetting writes its own row, and only that one
    rows = [(e.action, e.target) for e in a.audit_entries(actor=admin) if e.action.startswith("memory.")]
    assert ("memory.list", "zhang 的记忆") in rows, rows
    assert [r[0] for r in rows].count("memory.list") == 1 and [r[0] for r in rows].count("memory.forget") == 1, rows
