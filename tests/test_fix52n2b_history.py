"""Review 52n2 #3: memory history masks each entry's detail (an added row's source line) as well as its text."""

from __future__ import annotations

import sqlite3

from fakes import fake_assistant

CARD = "6222021234567890123"


def test_history_detail_is_masked(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    store = a.memory
    line = f"rules: 我的工资卡是{CARD}"
    with sqlite3.connect(a.settings.path("memory.sqlite3")) as conn:  # a row kept before masking
        conn.execute("INSERT INTO memories (id, user_id, content, kind, importance, created_at, source) VALUES "
                     "('old1', 'u7', ?, 'profile', 0.9, '2026-01-01T00:00:00+00:00', ?)", (f"用户的工资卡是{CARD}", line))
        conn.execute("INSERT INTO memory_history (memory_id, user_id, action, content, detail, at) VALUES "
                     "('old1', 'u7', 'added', ?, ?, '2026-01-01T00:00:00+00:00')", (f"用户的工资卡是{CARD}", line))
    [entry] = store.history("u7", "old1")
    assert CARD not in entry["detail"] and entry["detail"].startswith("rules: 我的工资卡是")
    assert CARD not in entry["content"]


def test_a_detail_without_personal_data_reads_as_written(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    a.remember("u8", "我在北京研发中心工作", importance=0.5)
    a.remember("u8", "我在北京研发中心工作", importance=0.9)  # told again: a detail with importance and a time
    mid = a.list_memories("u8")[0].id
    a.memory.undo([mid], user_id="u8")
    a.update_memory_importance(mid, 0.4)
    with sqlite3.connect(a.settings.path("memory.sqlite3")) as conn:
        raw = [r[0] for r in conn.execute("SELECT detail FROM memory_history WHERE memory_id = ? ORDER BY seq", (mid,))]
    assert len(raw) >= 3 and [e["detail"] for e in a.memory.history("u8", mid)] == raw
