"""Review 63 (memory) #2: deleting or forgetting one memory takes it out of the stored turns that used it (their list
of memories used, the prompt that quoted it, the search run with it), as a purge does for all of them; the other
memories a turn used stay listed, and a turn that used none is left as it was."""

from __future__ import annotations

import json

from rag_core.types import Principal
from tests.fakes import fake_assistant_with_samples

LINA = Principal("lina", "employee")


def _asked_with_memory(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    told = a.ask("我常驻杭州", user="lina", actor=LINA, conversation="c1")
    asked = a.ask("我出差住宿标准是多少？", user="lina", actor=LINA, conversation="c1")
    assert [m.content for m in asked.memories] == ["用户常驻杭州"] and "常驻杭州" in asked.prompt
    return a, told.acknowledged[0]["id"]


def _stored_turn(a, number):
    _conv, traces = a.open_conversation("c1", actor=LINA)
    return next(t for t in traces if t.turn == number)


def test_a_deleted_memory_leaves_the_turns_that_used_it(tmp_path):
    a, memory_id = _asked_with_memory(tmp_path)
    assert a.delete_memories([memory_id], actor=LINA) == 1
    turn = _stored_turn(a, 2)
    assert turn.memories == [] and "常驻杭州" not in (turn.prompt or "")
    # what the person typed stays (turn 1 said it); nothing the memory added is left in the asking turn's trace
    asked = a.conversations.traces("c1")[1].trace
    assert "常驻杭州" not in json.dumps(asked, ensure_ascii=False)
    assert not asked.get("memory_search")


def test_forgotten_memories_leave_the_turns_too(tmp_path):
    a, _memory_id = _asked_with_memory(tmp_path)
    assert a.forget_memories(0, "lina", actor=LINA) == 1
    assert "常驻杭州" not in json.dumps(a.conversations.traces("c1")[1].trace, ensure_ascii=False)


def test_forgotten_as_previewed_leave_the_turns_too(tmp_path):
    a, _memory_id = _asked_with_memory(tmp_path)
    shown = a.preview_forget(0, "lina", actor=LINA)
    assert a.forget_previewed(shown, 0, "lina", actor=LINA).count == 1
    assert "常驻杭州" not in json.dumps(a.conversations.traces("c1")[1].trace, ensure_ascii=False)


def test_the_other_memories_a_turn_used_stay(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("我常驻杭州", user="lina", actor=LINA, conversation="c1")
    a.ask("我在研发部", user="lina", actor=LINA, conversation="c1")
    asked = a.ask("我出差住宿标准是多少？", user="lina", actor=LINA, conversation="c1")
    used = {m.content: m.id for m in asked.memories}
    assert len(used) >= 2, used
    a.delete_memories([used["用户常驻杭州"]], actor=LINA)
    kept = [m["content"] for m in a.conversations.traces("c1")[2].trace["memories"]]
    assert "用户常驻杭州" not in kept and kept
