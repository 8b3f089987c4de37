"""清空全部记忆 while another tab's question is being answered: the turn stored afterwards keeps nothing of the
purged memories (`purge_memories` rewrote only the turns stored by then; stop 61's review found the late turn
still quoting them)."""

from __future__ import annotations

import json
import sqlite3
import threading

from fakes import QueuedLLM, fake_assistant_with_samples

from rag_core.insights.rows import MEMORIES_PURGED, TOLD_PURGED

FACT = "用户在研发部工作，是试用期员工"


def _stored(tmp_path) -> list[tuple[dict, str]]:
    con = sqlite3.connect(tmp_path / "store" / "conversations.sqlite3")
    try:
        return [(json.loads(t), a) for t, a in con.execute("SELECT trace, answer FROM turns ORDER BY turn")]
    finally:
        con.close()


def _assistant(tmp_path, llm=None):
    a = fake_assistant_with_samples(tmp_path / "store", llm=llm)
    a.remember("alice", FACT, kind="profile")
    return a


def _purge_once(a, fired: list):
    def on_token(_piece: str) -> None:  # the memories page, in another tab (thread), while this answer streams
        if not fired:
            t = threading.Thread(target=lambda: fired.append(a.purge_memories("alice")))
            t.start()
            t.join()
    return on_token


def test_a_purge_while_the_answer_streams_leaves_nothing_in_the_stored_turn(tmp_path):
    llm = QueuedLLM()
    a = _assistant(tmp_path, llm)
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    fired: list = []
    trace = a.ask("试用期员工加班怎么算？", user="alice", conversation="c1", on_token=_purge_once(a, fired))
    assert fired and fired[0].count == 1
    assert [m.content for m in trace.memories] == [FACT]  # the answer did use it
    assert a.list_memories("alice") == []
    (stored, answer), = _stored(tmp_path)
    assert "研发部" not in json.dumps(stored, ensure_ascii=False) and "研发部" not in answer
    assert stored["memories"] == [] and stored["memory_search"] == "" and stored["prompt"] == MEMORIES_PURGED


def test_a_purge_between_the_look_and_the_write_is_caught_after_it(tmp_path, monkeypatch):
    llm = QueuedLLM()
    a = _assistant(tmp_path, llm)
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    store = a.conversations
    real_add = store.add_turn

    def add_turn(*args, **kwargs):  # the purge lands after `_store_turn` looked, before the turn is written
        a.purge_memories("alice")
        return real_add(*args, **kwargs)

    monkeypatch.setattr(store, "add_turn", add_turn)
    a.ask("试用期员工加班怎么算？", user="alice", conversation="c1")
    (stored, _answer), = _stored(tmp_path)
    assert "研发部" not in json.dumps(stored, ensure_ascii=False)
    assert stored["memories"] == [] and stored["prompt"] == MEMORIES_PURGED


def test_a_statement_purged_before_its_turn_is_stored_says_so(tmp_path):
    a = _assistant(tmp_path)
    fired: list = []
    trace = a.ask("我在杭州常驻", user="alice", conversation="c2", on_token=_purge_once(a, fired))
    assert fired and trace.acknowledged  # it was written back, then purged before the turn was kept
    assert a.list_memories("alice") == []
    (stored, answer), = _stored(tmp_path)
    assert stored["acknowledged"] == [] and TOLD_PURGED in answer and TOLD_PURGED in stored["answer"]


def test_a_turn_whose_memories_are_still_there_is_kept_as_answered(tmp_path):
    llm = QueuedLLM()
    a = _assistant(tmp_path, llm)
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    a.ask("试用期员工加班怎么算？", user="alice", conversation="c1")
    (stored, _answer), = _stored(tmp_path)
    assert [m["content"] for m in stored["memories"]] == [FACT] and FACT in stored["prompt"]


def test_a_purge_during_an_undo_is_not_written_over(tmp_path, monkeypatch):
    """撤销 reads the turn, takes back its memories, then writes the turn: a purge in between was undone by that
    write (the turn's stale trace, quoting the purged memory, written back over the purge's rewrite)."""
    llm = QueuedLLM()
    a = _assistant(tmp_path, llm)
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    trace = a.ask("我常驻杭州。试用期员工加班怎么算？", user="alice", conversation="c3")
    assert trace.acknowledged and [m.content for m in trace.memories] == [FACT]
    memory = a.memory
    real_undo = memory.undo

    def undo(*args, **kwargs):  # the memories page's 清空全部记忆 lands while this undo runs
        done = real_undo(*args, **kwargs)
        a.purge_memories("alice")
        return done

    monkeypatch.setattr(memory, "undo", undo)
    a.undo_acknowledged("c3", trace.turn)
    (stored, answer), = _stored(tmp_path)
    assert "研发部" not in json.dumps(stored, ensure_ascii=False) and "研发部" not in answer
    assert stored["memories"] == [] and stored["acknowledged"] == [] and stored["acknowledgement_undone"]


def test_a_retention_sweep_during_a_turn_is_no_purge(tmp_path, monkeypatch):
    """With memory retention 0 the sweep hard-deletes a memory the person deleted on the memories page: that is no
    purge, and the person's other turns keep what they told (review rev-own3: every turn was blanked)."""
    llm = QueuedLLM()
    a = fake_assistant_with_samples(tmp_path / "store", llm=llm, memory_retention_days=0)
    a.remember("alice", FACT, kind="profile")
    a.remember("alice", "用户的工位在三楼", kind="profile")
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    used = a.ask("试用期员工加班怎么算？", user="alice", conversation="c1")
    assert [m.content for m in used.memories] == [FACT]
    assert a.ask("我在杭州常驻", user="alice", conversation="c2").acknowledged
    deleted: list = []

    def on_token(_piece):  # the person deletes that one memory while the next answer streams
        if not deleted:
            deleted.append(a.delete_memories([used.memories[0].id]))

    real_add = a.conversations.add_turn

    def add_turn(*args, **kwargs):  # the sweep lands as the turn is written (a moment after the delete)
        from datetime import UTC, datetime, timedelta

        a.memory.purge_deleted(now=datetime.now(UTC) + timedelta(seconds=2))
        return real_add(*args, **kwargs)

    monkeypatch.setattr(a.conversations, "add_turn", add_turn)
    llm.enqueue("根据制度，试用期员工加班按规定支付加班费。[资料1]")
    a.ask("试用期员工加班怎么算？", user="alice", conversation="c3", on_token=on_token)
    assert deleted and a.memory.get(used.memories[0].id, user_id="alice") is None  # swept
    told = [(trace, answer) for trace, answer in _stored(tmp_path) if trace.get("conversation") == "c2"]
    assert told and told[0][0]["acknowledged"] and TOLD_PURGED not in told[0][1]
    assert not any(trace.get("prompt") == MEMORIES_PURGED for trace, _ in _stored(tmp_path))
