"""Review 53i: a conversation an older version stored with a phone its masker missed (Chinese digits) is read
out masked by today's masker: list, get, open, both exports; the stored row is not rewritten. (A clause the
trace quotes is a document's and stays as stored: tests/test_fix54_kept_clauses.py.)"""

from __future__ import annotations

import json
import sqlite3

from fakes import fake_assistant

RAW = "一三八一二三四五六七八"
OLD = f"手机：{RAW}"


def old_conversation(a, user: str = "u1", cid: str = "old1") -> None:
    """Rows written straight into conversations.sqlite3, as stop 41's masker left them."""
    assert a.conversations is not None  # opens (and creates) the store
    trace = {"question": f"我的{OLD}，年假几天？", "answer": f"好的，{OLD}。年假 5 天 [资料1]", "conversation": cid,
             "turn": 1, "sources": [{"number": 1, "text": "联系人见人事部", "source": "手册", "section": "",
                                     "chunk_id": "d#1"}], "prompt": f"【问题】{OLD}"}
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:
        conn.execute("INSERT INTO conversations VALUES (?, ?, ?, '2026-01-01T00:00:00+00:00', "
                     "'2026-01-01T00:00:00+00:00')", (cid, user, f"我的{OLD}"))
        conn.execute("INSERT INTO turns VALUES (?, 1, ?, ?, ?, ?, NULL, '2026-01-01T00:00:00+00:00')",
                     (cid, trace["question"], trace["question"], trace["answer"], json.dumps(trace, ensure_ascii=False)))


def masked(text: str) -> bool:
    return RAW not in text and "[手机号]" in text


def test_fix53i_list_get_and_open_mask_an_old_conversation(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    old_conversation(a)
    assert masked(a.list_conversations("u1")[0].title)
    conv = a.get_conversation("old1")
    turn = conv.turns[0]
    assert masked(conv.title) and masked(turn.question) and masked(turn.search_question) and masked(turn.answer)
    assert masked(json.dumps(turn.trace, ensure_ascii=False))
    _conv, traces = a.open_conversation("old1")
    assert masked(json.dumps(traces[0].to_dict(), ensure_ascii=False))
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:  # read out masked, not rewritten
        assert RAW in conn.execute("SELECT title FROM conversations").fetchone()[0]


def test_fix53i_both_exports_mask_an_old_conversation(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    old_conversation(a)
    markdown = a.export_conversation_markdown("old1")
    assert RAW not in markdown and "\\[手机号\\]" in markdown and "联系人" in markdown
    assert masked(json.dumps(a.export_history("u1"), ensure_ascii=False))


def test_fix53i_an_old_turn_reaches_the_next_prompt_masked(tmp_path) -> None:
    from fakes import fake_assistant_with_samples

    a = fake_assistant_with_samples(tmp_path / "s")
    old_conversation(a)
    trace = a.ask("那病假呢？", user="u1", conversation="old1")
    assert RAW not in trace.prompt and RAW not in json.dumps(trace.to_dict(), ensure_ascii=False)
