"""Review rev-own4a (memory) M1, M2: a memory deleted by id while an answer that used it streams, or taken back by
undoing the statement that told it, leaves the stored turns that used it (their list of memories used, the prompt
that quoted it, the search run with it), as a purge does; a memory only superseded by a later telling does not."""

from __future__ import annotations

import json
import threading

from rag_core.insights.rows import MEMORIES_DELETED
from rag_core.types import Principal
from tests.fakes import QueuedLLM, fake_assistant_with_samples

LINA = Principal("lina", "employee")
FACT = "用户在研发部工作，是试用期员工"


def _stored(a, number: int = 0) -> dict:
    return a.conversations.traces("c1")[number].trace


def _streaming_with(tmp_path, during):
    """Lina asks with one memory; `during(assistant, memory_id)` runs in another thread at the first token."""
    llm = QueuedLLM()
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    a.remember("lina", FACT, kind="profile")
    memory_id = a.list_memories("lina")[0].id
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    fired: list = []

    def on_token(_piece: str) -> None:
        if not fired:
            worker = threading.Thread(target=lambda: fired.append(during(a, memory_id)))
            worker.start()
            worker.join()

    trace = a.ask("试用期员工加班怎么算？", user="lina", actor=LINA, conversation="c1", on_token=on_token)
    assert fired and [m.content for m in trace.memories] == [FACT]
    return a, memory_id


def test_a_memory_deleted_while_the_answer_streams_is_not_in_the_stored_turn(tmp_path):
    a, _memory_id = _streaming_with(tmp_path, lambda a, mid: a.delete_memories([mid], actor=LINA))
    assert a.list_memories("lina") == []
    stored = _stored(a)
    assert "研发部" not in json.dumps(stored, ensure_ascii=False)
    assert stored["memories"] == [] and stored["prompt"] == MEMORIES_DELETED and not stored.get("memory_search")


def test_a_memory_deleted_just_after_the_turn_is_written_leaves_it_too(tmp_path, monkeypatch):
    """A delete between the write and the look after it (its own rewrite ran before the turn was there)."""
    llm = QueuedLLM("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    a.remember("lina", FACT, kind="profile")
    memory_id = a.list_memories("lina")[0].id
    store, written = a.conversations, a.conversations.add_turn

    def add_then_delete(*args, **kwargs):
        turn = written(*args, **kwargs)
        store.rewrite_turns, rewrite = (lambda *_a, **_k: 0), store.rewrite_turns  # the delete saw no turn yet
        try:
            a.delete_memories([memory_id], actor=LINA)
        finally:
            store.rewrite_turns = rewrite
        return turn

    monkeypatch.setattr(store, "add_turn", add_then_delete)
    trace = a.ask("试用期员工加班怎么算？", user="lina", actor=LINA, conversation="c1")
    assert [m.content for m in trace.memories] == [FACT]
    assert "研发部" not in json.dumps(_stored(a), ensure_ascii=False)


def test_an_undo_while_the_answer_streams_leaves_the_stored_turn_too(tmp_path):
    def told_then_undone(a, _mid):
        a.ask("我常驻杭州", user="lina", actor=LINA, conversation="c2")
        return a.undo_acknowledged("c2", 1, actor=LINA)

    a, _memory_id = _streaming_with(tmp_path, told_then_undone)
    assert [m.content for m in a.list_memories("lina")] == [FACT]  # the memory it used is still there: kept
    assert _stored(a)["memories"][0]["content"] == FACT


def test_an_undone_statement_leaves_the_later_turns_that_quoted_it(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    told = a.ask("我常驻杭州", user="lina", actor=LINA, conversation="c1")
    asked = a.ask("我出差住宿标准是多少？", user="lina", actor=LINA, conversation="c1")
    assert told.acknowledged and "常驻杭州" in asked.prompt
    a.undo_acknowledged("c1", 1, actor=LINA)
    assert a.list_memories("lina") == []
    later = _stored(a, 1)
    assert "常驻杭州" not in json.dumps(later, ensure_ascii=False)
    assert later["memories"] == [] and later["prompt"] == MEMORIES_DELETED
    assert _stored(a, 0)["acknowledgement_undone"]  # the undone turn itself says so, as before


def test_an_undone_restatement_leaves_the_later_turns_as_they_were(tmp_path):
    """Undo of a restatement keeps the fact told before: the turns that used it keep quoting it."""
    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("我常驻杭州", user="lina", actor=LINA, conversation="c1")
    a.ask("我常驻杭州", user="lina", actor=LINA, conversation="c1")
    asked = a.ask("我出差住宿标准是多少？", user="lina", actor=LINA, conversation="c1")
    assert "常驻杭州" in asked.prompt
    a.undo_acknowledged("c1", 2, actor=LINA)
    assert [m.content for m in a.list_memories("lina")] == ["用户常驻杭州"]
    assert "常驻杭州" in _stored(a, 2)["prompt"]


def test_a_memory_replaced_by_the_same_turn_stays_in_its_prompt(tmp_path):
    """Superseded by a later telling (我调到了市场部) is no delete by the person: the turn quoted what held then."""
    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("我在研发部", user="lina", actor=LINA, conversation="c1")
    asked = a.ask("我调到了市场部，我们部门加班怎么算？", user="lina", actor=LINA, conversation="c1")
    used = [m.content for m in asked.memories]
    assert used == ["用户在研发部工作"] and a.memory.get(asked.memories[0].id).delete_reason == "replaced"
    stored = _stored(a, 1)
    assert [m["content"] for m in stored["memories"]] == used
    assert stored["prompt"] == asked.prompt and stored["prompt"] != MEMORIES_DELETED
