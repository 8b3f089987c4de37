"""Review 56 (memory): undo reverses exactly what the turn did, and never a change the person made by hand since."""

from __future__ import annotations

from fakes import fake_assistant


def _turn(a, conversation: str) -> int:
    return a.get_conversation(conversation).turns[-1].turn


def test_undo_removes_a_fact_the_same_turn_added_and_then_restated(tmp_path):
    a = fake_assistant(tmp_path / "s")
    told = a.ask("我常驻杭州，我在杭州上班", conversation="c1")
    assert len({m["id"] for m in told.acknowledged}) == 1 and len(told.acknowledged) == 2  # added, then strengthened
    undone = a.undo_acknowledged("c1", told.turn)
    assert a.list_memories("local") == []
    assert undone.kept_before == 0 and undone.deleted == 2
    assert "以前就记住了" not in a.get_conversation("c1").turns[-1].answer


def test_undo_of_a_turn_that_restated_an_older_fact_twice_keeps_it_as_before(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", conversation="c1")
    [row] = a.list_memories("local")
    again = a.ask("我常驻杭州，我在杭州上班", conversation="c2")
    assert a.memory.get(row.id).importance > row.importance
    a.undo_acknowledged("c2", again.turn)
    after = a.memory.get(row.id)
    assert (after.deleted, after.importance, after.created_at) == (False, row.importance, row.created_at)


def test_undo_of_a_turn_that_told_a_fact_and_replaced_it_brings_back_only_what_was_before(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.ask("我在销售部工作", conversation="c1")
    told = a.ask("我在财务部工作，我调到了人事部", conversation="c2")
    assert [m.content for m in a.list_memories("local")] == ["用户在人事部工作"]
    a.undo_acknowledged("c2", told.turn)
    assert [m.content for m in a.list_memories("local")] == ["用户在销售部工作"]


def test_undo_keeps_the_importance_the_person_set_by_hand_after_the_turn(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", conversation="c1")
    a.ask("我常驻杭州", conversation="c1")
    [row] = a.list_memories("local")
    a.update_memory_importance(row.id, 0.1)
    undone = a.undo_acknowledged("c1", _turn(a, "c1"))
    [kept] = a.list_memories("local")
    assert kept.importance == 0.1 and undone.edited == 1 and undone.kept_before == 0 and undone.deleted == 0  # kept as set by hand, not as told before
    assert any(h["action"] == "kept" for h in a.memory.history("local", row.id))


def test_undo_keeps_a_memory_the_person_corrected_by_hand_after_the_turn(tmp_path):
    a = fake_assistant(tmp_path / "s")
    told = a.ask("我在研发部工作", conversation="c1")
    [row] = a.list_memories("local")
    a.update_memory_text(row.id, "用户在研发部测试组工作，负责自动化测试")
    undone = a.undo_acknowledged("c1", told.turn)
    assert [m.content for m in a.list_memories("local")] == ["用户在研发部测试组工作，负责自动化测试"]
    assert undone.edited == 1 and undone.kept_before == 0 and undone.deleted == 0


def test_a_fact_taken_back_after_a_later_turn_replaced_it_never_returns(tmp_path):
    """Review 193: 我在销售部工作, then 我调到市场部工作了; undoing the first turn, then the second, left the first
    turn's fact active (the second's undo restored what it had replaced)."""
    a = fake_assistant(tmp_path / "s")
    first = a.ask("我在销售部工作", conversation="c1")
    second = a.ask("我调到市场部工作了", conversation="c1")
    assert [m.content for m in a.list_memories("local")] == ["用户在市场部工作"]
    a.undo_acknowledged("c1", first.turn)
    assert [m.content for m in a.list_memories("local")] == ["用户在市场部工作"]
    a.undo_acknowledged("c1", second.turn)
    assert a.list_memories("local") == []
