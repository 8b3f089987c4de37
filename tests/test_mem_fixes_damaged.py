"""A damaged memory store costs the memories, never the answer: chat answers without them and says why."""

from __future__ import annotations

from test_pages_damaged_stores import LOCAL, damaged, open_page, plain


def test_a_question_is_answered_with_a_damaged_memory_store(tmp_path):
    a = damaged(tmp_path, "memory.sqlite3")
    trace = a.ask("年假有几天", user="local", actor=LOCAL, conversation="c2")
    assert trace.answer and trace.search.hits and trace.memories == []
    assert trace.turn == 1, "the turn is still kept"
    assert any("memory.sqlite3" in w and "不参考记住的个人信息" in w for w in trace.search.warnings), trace.search.warnings


def test_a_statement_with_a_question_is_answered_with_a_damaged_memory_store(tmp_path):
    a = damaged(tmp_path, "memory.sqlite3")
    trace = a.ask("我常驻杭州，年假有几天", user="local", actor=LOCAL, conversation="c2")
    assert trace.search.hits
    assert "没能记住" in trace.answer and "我记住了" not in trace.answer
    assert any("memory.sqlite3" in w for w in trace.search.warnings)


def test_a_statement_alone_is_acknowledged_with_a_damaged_memory_store(tmp_path):
    a = damaged(tmp_path, "memory.sqlite3")
    trace = a.ask("我常驻杭州", user="local", actor=LOCAL, conversation="c2")
    assert "没能记住" in trace.answer, trace.answer
    assert any("memory.sqlite3" in w for w in trace.search.warnings)


def test_chat_page_answers_with_a_damaged_memory_store(tmp_path, monkeypatch):
    at = open_page(damaged(tmp_path, "memory.sqlite3"), tmp_path, monkeypatch)
    at.chat_input[0].set_value("年假有几天").run()
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    assert not [e.value for e in at.error if "回答失败" in e.value]
    shown = " ".join(plain(m.value) for m in [*at.markdown, *at.warning, *at.caption])
    assert "memory.sqlite3" in shown
