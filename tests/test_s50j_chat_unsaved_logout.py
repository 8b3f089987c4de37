"""Answers the damaged conversation store could not keep belong to one person and one conversation (AppTest).

They were kept in the browser session and drawn on every run whoever was logged in: after 退出登录 the next person
on the same tab saw the previous person's questions and answers (found by review)."""

from __future__ import annotations

import gc
from pathlib import Path

from app_support import logged_in_with, submit_login
from fakes import fake_assistant, fake_assistant_with_samples
from test_s50b_chat import APP, QUESTION, garble

from rag_core import Principal

PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
OTHER_QUESTION = "年假有几天？"


def team_with_damaged_conversations(tmp_path: Path):
    data = tmp_path / "store"
    a = fake_assistant_with_samples(data)
    a.add_user("wang", "admin", PASSWORD)
    a.add_user("zhang", "employee", PASSWORD, actor=ADMIN)
    a.add_user("li", "employee", PASSWORD, actor=ADMIN)
    a.ask(QUESTION, actor=ADMIN, conversation="c1")
    a.memory.close()
    del a
    gc.collect()
    garble(data / "conversations.sqlite3")
    return fake_assistant(data)


def shown(at) -> str:
    return " ".join(m.value for m in at.markdown)


def test_the_next_person_on_the_tab_does_not_see_unsaved_answers(tmp_path, monkeypatch) -> None:
    a = team_with_damaged_conversations(tmp_path)
    at = logged_in_with(a, APP, "zhang", PASSWORD, tmp_path, monkeypatch)
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception, [e.value for e in at.exception]
    at.run()
    assert QUESTION in shown(at)  # zhang still sees the unsaved answer
    next(b for b in at.button if b.label == "退出登录").click().run()
    assert "chat_unsaved" not in at.session_state, "zhang's unsaved answers outlive the logout"
    assert "c" not in at.query_params  # zhang's conversation is not the next person's
    at.run()
    submit_login(at, "li", PASSWORD)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("不会保存" in w.value for w in at.warning)  # li is on the chat page, the store still damaged
    assert QUESTION not in shown(at), "li sees zhang's unsaved question"
    assert not any("没有保存" in c.value for c in at.caption)


def test_unsaved_answers_show_only_in_their_conversation(tmp_path, monkeypatch) -> None:
    """A new conversation (新对话) starts empty; going back to the unsaved one shows its answers again."""
    a = team_with_damaged_conversations(tmp_path)
    at = logged_in_with(a, APP, "zhang", PASSWORD, tmp_path, monkeypatch)
    at.chat_input[0].set_value(QUESTION).run()
    first = at.query_params["c"]
    at.chat_input[0].set_value(OTHER_QUESTION).run()  # a follow-up: the same conversation
    assert at.query_params["c"] == first
    assert QUESTION in shown(at) and OTHER_QUESTION in shown(at)
    next(b for b in at.button if b.label == "新对话").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert QUESTION not in shown(at) and OTHER_QUESTION not in shown(at)
    at.query_params["c"] = first
    at.run()
    assert QUESTION in shown(at) and OTHER_QUESTION in shown(at)


def test_a_session_ended_elsewhere_takes_the_unsaved_answers_with_it(tmp_path, monkeypatch) -> None:
    a = team_with_damaged_conversations(tmp_path)
    at = logged_in_with(a, APP, "zhang", PASSWORD, tmp_path, monkeypatch)
    at.chat_input[0].set_value(QUESTION).run()
    assert QUESTION in shown(at)
    a.logout(at.session_state["session_token"], actor=Principal("zhang", "employee"))  # e.g. another tab logged out
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(b.label == "登录" for b in at.button)
    assert "chat_unsaved" not in at.session_state
