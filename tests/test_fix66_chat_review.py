"""The chat page's outbox when the browser's next send stops a run (fake embedder, real stores, AppTest; review 340
of 5a1578b, fixed at 5861d1a). Each test is one of the review's reproductions:

- review 340 #1: a session ended before the streaming ask's worker started left its conversation "being answered".
- review 340 #2: a follow-up typed in conversation A, then a click on B before its ask: asked in B, with B's context.
- review 340 #3: questions sent meanwhile were dropped, or left unshown and unasked, when the first one's ask failed.
- review 340 #4: a question sent from a desktop tab was asked as the next person who logged in on that tab.
- review 340 #5: a too-long paste sent meanwhile was queued unchecked, then failed as 回答失败 with its text lost.
- review 340 #6: 确认删除 right after a send: no confirmation, and the question answered in a new chat unannounced.
- review 340 #7: the waiting queue full: only the last of several refused questions was named.
- review 340 #8: chat_address_sent sent a later visit to 制度问答 from the menu back to an old conversation.

The browser's next send is a RerunException carrying what it would send, raised from the Streamlit call at which a
real run would have been stopped (tests/chat_preempt_support.py; as tests/test_fix66_question_preempted.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from app_support import logged_in_with, open_chat, submit_login
from chat_preempt_support import (
    APP,
    LOCAL,
    asked,
    conversations,
    next_send,
    sample_assistant,
    shown,
    stop_at,
    until,
)
from fakes import QueuedLLM
from streamlit.runtime.scriptrunner import RerunData
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

import ui.inert
import ui.state
from rag_core import Principal, RagError
from rag_core.assistant import Assistant

QUESTION = "出差住宿标准是多少？"
FOLLOW_UP = "那一线城市呢？"
ANNUAL_LEAVE = "年假有几天？"
ANSWER = "出差住宿标准按城市分级执行。一线城市每晚不超过 600 元 [资料1]。"
PASSWORD = "correct horse"
BOSS, LI = Principal("boss", "admin"), Principal("li", "employee")
ANSWERING_NOTE = "正在回答上一个问题"
OUTBOX_KEY = "chat_outbox"


@pytest.fixture(autouse=True)
def no_ask_outlives_its_test() -> Iterator[None]:
    """The asks in flight and the questions waiting are the server process's (ui.state): what a test's pages left
    there (an ask never ended, as before the fix) is dropped, so no later test finds a conversation busy."""
    before = set(ui.state._ANSWERING), set(ui.state._WAITING)
    yield
    with ui.state._ANSWERING_LOCK:
        for listing, kept in zip((ui.state._ANSWERING, ui.state._WAITING), before):
            for key in set(listing) - kept:
                listing.pop(key, None)


def streaming_assistant(tmp_path: Path, replies: int) -> Assistant:
    """The samples, and a model streaming `replies` answers (the page asks through ask_streaming's worker)."""
    return sample_assistant(tmp_path, llm=QueuedLLM(*[ANSWER] * replies), llm_api_key="test-key",
                            llm_model_id="test-model")


def test_a_session_ended_before_the_streaming_ask_started_leaves_its_conversation_free(tmp_path, monkeypatch) -> None:
    """#1: the ask is the worker's only once the worker runs; a session ended before (logged out in another window
    while the answer's bubble is drawn) ends the ask in this run, and the question sent after logging in again is
    asked, not kept waiting behind an ask nobody ends."""
    a = streaming_assistant(tmp_path, replies=6)
    a.add_user("boss", "admin", PASSWORD, actor=LOCAL)
    a.add_user("li", "employee", PASSWORD, actor=BOSS)
    conversation = asked(a, QUESTION, user="li", actor=LI)
    tab = logged_in_with(a, APP, "li", PASSWORD, tmp_path, monkeypatch)
    tab.query_params["c"] = conversation
    tab.run()
    token = tab.session_state[ui.state.TOKEN_KEY]
    real = st.chat_message
    bubbles: list[int] = []

    def logged_out_meanwhile(*args: Any, **kwargs: Any) -> Any:
        bubbles.append(1)
        if len(bubbles) == 4:  # the answer's bubble of the new question (the turn stored: 2, then the question's)
            a.logout(token, actor=LI)
        return real(*args, **kwargs)

    monkeypatch.setattr(st, "chat_message", logged_out_meanwhile)
    tab.chat_input[0].set_value(FOLLOW_UP).run()
    monkeypatch.setattr(st, "chat_message", real)
    assert len(bubbles) >= 4
    assert ui.state.answering("li", conversation) == []  # the ask that never started is not listed as answered

    again = logged_in_with(a, APP, "li", PASSWORD, tmp_path, monkeypatch)
    again.query_params["c"] = conversation
    again.run()
    again.chat_input[0].set_value(FOLLOW_UP).run()

    def turns() -> list[str]:
        return conversations(a, "li", LI)[conversation]

    until(lambda: len(turns()) >= 2 and not ui.state.answering("li", conversation), again.run)
    assert not again.exception, [e.value for e in again.exception]
    assert turns() == [QUESTION, FOLLOW_UP]
    assert not any(ANSWERING_NOTE in i.value for i in again.info), [i.value for i in again.info]


def test_a_question_is_asked_in_the_conversation_it_was_typed_in(tmp_path, monkeypatch) -> None:
    """#2: the follow-up typed in A, and a click on B in the sidebar while its run still draws A's turns: answered
    in A, with A's context; B is left as it was."""
    a = sample_assistant(tmp_path)
    typed_in = asked(a, QUESTION)
    other = asked(a, ANNUAL_LEAVE)
    tab = open_chat(a, tmp_path, monkeypatch, typed_in)
    open_other = tab.button(key=f"open_{other}").id
    restore = stop_at(monkeypatch, "chat_message", 1, lambda: next_send(trigger=open_other, query=f"c={typed_in}"))
    tab.chat_input[0].set_value(FOLLOW_UP).run()
    restore()
    tab.run()
    assert not tab.exception, [e.value for e in tab.exception]
    assert conversations(a) == {typed_in: [QUESTION, FOLLOW_UP], other: [ANNUAL_LEAVE]}


@pytest.mark.parametrize("in_a_conversation", [False, True], ids=["new-chat", "stored-conversation"])
def test_questions_sent_meanwhile_are_asked_when_the_first_ones_ask_fails(tmp_path, monkeypatch,
                                                                          in_a_conversation: bool) -> None:
    """#3: two questions in the outbox (the run that read the first stopped by the second send), the first one's ask
    failing (the model service down): the failure is said and the second is asked — in a new chat (nothing of the
    failed one kept), or in the stored conversation where both were typed."""
    a = sample_assistant(tmp_path)
    conversation = asked(a, QUESTION) if in_a_conversation else None
    real_ask = a.ask
    calls: list[str] = []

    def first_fails(question: str, **kwargs: Any) -> Any:
        calls.append(question)
        if len(calls) == 1:
            raise RagError("模型服务暂时不可用，请稍后再试")
        return real_ask(question, **kwargs)

    monkeypatch.setattr(a, "ask", first_fails)
    tab = open_chat(a, tmp_path, monkeypatch, conversation)
    box = tab.chat_input[0].id
    address = f"c={conversation}" if conversation else ""
    # stopped at the question's own bubble: the first drawn in a new chat, after the stored turn's two in one
    restore = stop_at(monkeypatch, "chat_message", 3 if conversation else 1,
                      lambda: next_send(box, ANNUAL_LEAVE, query=address))
    first = FOLLOW_UP if conversation else QUESTION
    tab.chat_input[0].set_value(first).run()
    restore()
    assert not tab.exception, [e.value for e in tab.exception]
    assert calls == [first, ANNUAL_LEAVE]  # each asked once, in the order sent
    assert any("回答失败" in e.value for e in tab.error), [e.value for e in tab.error]
    assert ANNUAL_LEAVE in shown(tab)
    stored = conversations(a)
    if conversation:
        assert stored == {conversation: [QUESTION, ANNUAL_LEAVE]}
    else:
        assert list(stored.values()) == [[ANNUAL_LEAVE]]
    assert tab.session_state[OUTBOX_KEY] == []


def test_a_desktop_tabs_question_is_not_asked_as_the_next_person_to_log_in(tmp_path, monkeypatch) -> None:
    """#4: a desktop tab stays open while the first accounts are made elsewhere; the question it sends meets the
    login form, and is not asked when a colleague logs in on that tab (under their name, in their history)."""
    a = sample_assistant(tmp_path)
    tab = open_chat(a, tmp_path, monkeypatch)  # desktop mode: the local administrator
    assert not a.team_mode
    a.add_user("boss", "admin", PASSWORD, actor=LOCAL)
    a.add_user("li", "employee", PASSWORD, actor=BOSS)
    private = "我下个月要离职，离职补偿怎么算？"
    tab.chat_input[0].set_value(private).run()
    assert any(b.label == "登录" for b in tab.button)  # team mode now: the login form
    submit_login(tab, "li", PASSWORD)
    tab.run()
    assert not tab.exception, [e.value for e in tab.exception]
    assert tab.session_state[ui.state.PRINCIPAL_KEY] == LI  # li is logged in on the tab
    assert conversations(a, "li", LI) == {}
    assert private not in shown(tab)


def test_a_too_long_paste_sent_meanwhile_is_refused_with_its_text_to_copy(tmp_path, monkeypatch) -> None:
    """#5: a paste over the length limit sent while the run that read the question before it was stopped: refused
    as a paste sent alone is, its text shown to copy and shorten, and never asked."""
    a = sample_assistant(tmp_path)
    long_paste = "请问出差住宿标准的具体规定是什么，" * (a.MAX_QUESTION_CHARS // 10 + 5)
    assert a.question_too_long(long_paste)
    tab = open_chat(a, tmp_path, monkeypatch)
    box = tab.chat_input[0].id
    restore = stop_at(monkeypatch, "chat_message", 1, lambda: next_send(box, long_paste))
    tab.chat_input[0].set_value(QUESTION).run()
    restore()
    assert not tab.exception, [e.value for e in tab.exception]
    assert any(long_paste in c.value for c in tab.code), "the paste is not shown back to copy"
    assert any("问题太长" in e.value for e in tab.error), [e.value for e in tab.error]
    assert list(conversations(a).values()) == [[QUESTION]]


def test_a_delete_clicked_right_after_a_send_is_confirmed_and_the_question_announced(tmp_path, monkeypatch) -> None:
    """#6: 确认删除 for A clicked right after a follow-up was sent in A: A is deleted and the confirmation stays on
    screen through the rerun of the follow-up's ask, which is said to have been answered in a new chat."""
    a = sample_assistant(tmp_path)
    deleted = asked(a, QUESTION)
    tab = open_chat(a, tmp_path, monkeypatch, deleted)
    delete = tab.button(key=f"delete_{deleted}").id
    restore = stop_at(monkeypatch, "chat_message", 1, lambda: next_send(trigger=delete, query=f"c={deleted}"))
    tab.chat_input[0].set_value(FOLLOW_UP).run()
    restore()
    assert not tab.exception, [e.value for e in tab.exception]
    assert any("已删除对话" in s.value for s in tab.success), [s.value for s in tab.success]
    assert "原来的对话已不存在" in shown(tab)  # the follow-up answered without A's context, and said so
    assert list(conversations(a).values()) == [[FOLLOW_UP]]


def test_every_question_refused_for_a_full_queue_is_named(tmp_path, monkeypatch) -> None:
    """#7: the conversation's waiting queue full, two questions in the outbox: both refused, and both named on the
    page (the first one's warning was drawn by a run that reran at once, and wiped)."""
    a = sample_assistant(tmp_path)
    conversation = asked(a, QUESTION)
    queued = [f"排队问题{i}" for i in range(ui.state.WAITING_LIMIT)]
    done = ui.state.start_answering("local", conversation, "另一个窗口正在问的问题")  # another tab's answer
    try:
        for question in queued:
            assert ui.state.wait_turn("local", conversation, question, question)
        tab = open_chat(a, tmp_path, monkeypatch, conversation)
        box = tab.chat_input[0].id
        restore = stop_at(monkeypatch, "chat_message", 1,
                          lambda: next_send(box, "那病假呢？", query=f"c={conversation}"))
        tab.chat_input[0].set_value("那婚假呢？").run()
        restore()
        assert not tab.exception, [e.value for e in tab.exception]
        refused = [w.value for w in tab.warning if "排队" in w.value]
        assert any("那婚假呢？" in w for w in refused), refused
        assert any("那病假呢？" in w for w in refused), refused
        assert tab.session_state[OUTBOX_KEY] == []
        assert ui.state.waiting_questions("local", conversation) == queued  # nothing kept beyond the limit
    finally:
        done()
        ui.state.forget_waiting("local", conversation)


def test_the_chat_page_opened_from_the_menu_after_leaving_mid_answer_is_a_new_chat(tmp_path, monkeypatch) -> None:
    """#8: the person leaves for 记忆管理 while an answer is written (the run stopped, its worker goes on), and later
    opens 制度问答 from the menu: a new chat, as every other time, not the conversation left behind."""
    a = streaming_assistant(tmp_path, replies=3)
    tab = open_chat(a, tmp_path, monkeypatch)
    memories = tab._resolve_page_hash(str(Path(APP).parent / "pages" / "memories.py"))  # the menu's 记忆管理
    real = ui.inert.inert_markdown
    left: list[bool] = []

    def leave_for_memories(text: str) -> str:  # the first piece of the answer drawn: 记忆管理 clicked
        if not left:
            left.append(True)
            raise RerunException(RerunData(query_string="", page_script_hash=memories))
        return real(text)

    monkeypatch.setattr(ui.inert, "inert_markdown", leave_for_memories)
    tab.chat_input[0].set_value(QUESTION).run()
    monkeypatch.setattr(ui.inert, "inert_markdown", real)
    assert left
    until(lambda: bool(a.list_conversations("local", actor=LOCAL)))
    [left_behind] = conversations(a)
    until(lambda: not ui.state.answering("local", left_behind))  # the worker has ended
    tab.query_params.clear()
    tab.switch_page("pages/memories.py").run()
    tab.query_params.clear()
    tab.switch_page("pages/chat.py").run()  # 制度问答 from the menu
    assert not tab.exception, [e.value for e in tab.exception]
    assert tab.query_params.get("c") is None, tab.query_params
    assert "不存在或已被删除" not in shown(tab)
