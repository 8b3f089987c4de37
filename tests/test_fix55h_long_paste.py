"""Review 55h #3: a paste over 500 characters into the question box or the 👎 comment box vanished with no word.

At `max_chars` Streamlit's browser box drops a longer paste whole; the boxes' bound now lies far above the engine's
limit, and the engine's limit is said in Chinese with what was typed shown back (fake embedder, AppTest)."""

from __future__ import annotations

from pathlib import Path

from app_support import open_chat
from fakes import fake_assistant_with_samples

from rag_core import Assistant, Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")
LIMIT = Assistant.MAX_QUESTION_CHARS




def test_a_long_question_is_refused_in_chinese_with_the_text_shown_back(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    at = open_chat(a, tmp_path, monkeypatch)
    assert at.chat_input[0].proto.max_chars >= 50_000  # a longer paste is dropped by the browser (6,600 was: 376 #2)
    pasted = "出差住宿标准是多少？" * 60  # 600 characters
    at.chat_input[0].set_value(pasted).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(e.value for e in at.error)
    assert f"问题太长：{len(pasted)} 个字，最多 {LIMIT} 个字" in said, said
    assert any(c.value == pasted for c in at.code)  # there to copy and shorten
    assert a.list_conversations("local", actor=LOCAL) == []  # no empty conversation started for it
    assert "c" not in at.query_params


def test_the_comment_box_takes_a_long_paste_and_the_engine_says_it_is_too_long(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask("出差住宿标准是多少？", actor=LOCAL, conversation="c1")
    at = open_chat(a, tmp_path, monkeypatch, "c1")
    at.feedback[0].set_value(0).run()
    box = next(t for t in at.text_input if t.label == "补充说明（可选）")
    assert box.proto.max_chars > 500
    box.set_value("回答不对" * 150).run()  # 600 characters
    assert not at.exception, [e.value for e in at.exception]
    assert any("补充说明太长：600 个字，最多 500 个字" in t.value for t in at.toast), [t.value for t in at.toast]
    assert next(t for t in at.text_input if t.label == "补充说明（可选）").value == "回答不对" * 150  # kept in the box


def test_a_long_paste_sent_while_a_question_waits_is_still_said(tmp_path, monkeypatch) -> None:
    """Review 182: the run that refused the paste went on to answer the waiting question and rerun, which wiped the
    refusal and the text to copy: both are kept for the run after."""
    import ui.state

    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask("出差住宿标准是多少？", actor=LOCAL, conversation="c1")
    at = open_chat(a, tmp_path, monkeypatch, "c1")
    ui.state.wait_turn("local", "c1", "那一线城市呢？", "那一线城市呢？")
    pasted = "年假怎么休？" * 100
    at.chat_input[0].set_value(pasted).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(e.value for e in at.error)
    assert "问题太长" in said and any(c.value == pasted for c in at.code), said
    assert [t.question for t in a.get_conversation("c1", actor=LOCAL).turns][-1] == "那一线城市呢？"


def test_an_invisible_only_question_is_not_said_to_be_too_long(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    at = open_chat(a, tmp_path, monkeypatch)
    at.chat_input[0].set_value("\u200b\u200b").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("删短" in e.value for e in at.error) and not at.code
