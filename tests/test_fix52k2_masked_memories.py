"""Review 52k #3: a memory stored before masking is read out masked: recall, list, get, history, the trace
and the conversation store never carry its raw numbers."""

from __future__ import annotations

import json
import sqlite3

from fakes import fake_assistant, fake_assistant_with_samples

RAW = "用户的工资卡是6222021234567890123，手机13812345678"
NUMBERS = ("6222021234567890123", "13812345678")


def old_row(a, user: str = "u1") -> str:
    """A row written straight into memory.sqlite3, as a store from before masking holds it."""
    assert a.memory is not None  # opens (and creates) the store
    with sqlite3.connect(a.settings.path("memory.sqlite3")) as conn:
        conn.execute("INSERT INTO memories (id, user_id, content, kind, importance, created_at, source) "
                     "VALUES ('old1', ?, ?, 'profile', 0.9, '2026-01-01T00:00:00+00:00', ?)", (user, RAW, f"rules: {RAW}"))
        conn.execute("INSERT INTO memory_history (memory_id, user_id, action, content, detail, at) "
                     "VALUES ('old1', ?, 'added', ?, '', '2026-01-01T00:00:00+00:00')", (user, RAW))
    return "old1"


def raw_in(text: str) -> bool:
    return any(n in text for n in NUMBERS)


def test_listing_get_and_history_mask_an_old_row(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    mid = old_row(a)
    listed = a.list_memories("u1")
    assert [m.id for m in listed] == [mid] and not raw_in(listed[0].content) and "工资卡" in listed[0].content
    record = a.memory.get(mid)
    assert not raw_in(record.content) and not raw_in(record.source)
    assert not raw_in(json.dumps(a.memory.history("u1", mid), ensure_ascii=False))
    assert not raw_in(a.memory.preview_forget(0, user_id="u1")[0].content)


def test_recall_the_trace_and_the_stored_turn_are_masked(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "s", memory_threshold=0.0)
    old_row(a)
    trace = a.ask("工资卡是哪家银行的，工资几号发？", user="u1", conversation="c1")
    assert [m.id for m in trace.memories] == ["old1"]
    assert not raw_in(json.dumps(trace.to_dict(), ensure_ascii=False))
    stored = a.get_conversation("c1").turns[0]
    assert not raw_in(json.dumps(stored.trace, ensure_ascii=False)) and not raw_in(stored.answer)
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:  # nothing raw copied into the file
        dump = "\n".join(conn.iterdump())
    assert not raw_in(dump)
