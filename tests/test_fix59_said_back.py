"""A statement that corrects itself in one turn (我在研发部，我调到了市场部) is said back as it now stands: the replaced
fact is not repeated (review 219), and undoing the turn still takes back both, since it told both."""

from __future__ import annotations

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
