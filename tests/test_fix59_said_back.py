"""A statement that corrects itself in one turn (我在研发部，我调到了市场部) is said back as it now stands: the replaced
fact is not repeated (review 219), and undoing the turn still takes back both, since it told both."""

from __future__ import annotations

import pytest
from fakes import fake_assistant


def test_the_acknowledgement_leaves_out_the_fact_the_same_turn_replaced(tmp_path):
    a = fake_assistant(tmp_path / "s")
    told = a.ask("我在研发部，我调到了市场部", user="local", conversation="c1")
    assert told.acknowledged and "市场部" in told.answer and "研发部" not in told.answer, told.answer
    assert len(told.acknowledged) == 2 and sum(bool(m.get("replaced")) for m in told.acknowledged) == 1
    a.undo_acknowledged("c1", told.turn)
    assert [m.content for m in a.list_memories("local")] == []


def test_facts_nothing_replaced_are_all_said_back(tmp_path):
    a = fake_assistant(tmp_path / "s")
    told = a.ask("我在研发部，常驻杭州", user="local", conversation="c1")
    assert "研发部" in told.answer and "杭州" in told.answer, told.answer


@pytest.mark.slow  # the later telling rewords the same row only when e5 reads the two as one fact
def test_undoing_the_first_telling_keeps_what_a_later_turn_told(tmp_path):
    """Review 219: undoing 我老婆怀孕了 after 我老婆怀孕7个月了 took back the later telling (the row went back to
    用户老婆怀孕了) and said the fact was told before; the turn keeps its telling, and undo takes back that one."""
    from memory_support import e5

    a = fake_assistant(tmp_path / "s", embedder=e5())
    first = a.ask("我老婆怀孕了", user="local", conversation="c1")
    later = a.ask("我老婆怀孕7个月了", user="local", conversation="c1")
    assert first.acknowledged[0].get("telling") is not None and later.acknowledged
    undone = a.undo_acknowledged("c1", first.turn)
    assert [m.content for m in a.list_memories("local")] == ["用户老婆怀孕7个月了"]
    assert undone.told_later == 1 and undone.deleted == 0
    note = a.get_conversation("c1").turns[0].answer
    assert "后来又说过" in note and "以前就记住了" not in note, note
