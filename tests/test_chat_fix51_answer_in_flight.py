"""A refresh or Back while the first answer of a conversation is written: the conversation is being answered, not
deleted (fake embedder, real stores, AppTest).

The conversation is stored only when its answer is; the address names it as soon as the question is asked. The
page said 这个对话不存在或已被删除 and dropped ?c=, so the person saw neither the question nor the answer."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app_support import point_the_app_at
from fakes import QueuedLLM, fake_assistant, fake_assistant_with_samples
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from streamlit.testing.v1 import AppTest

from rag_core import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")
QUESTION = "出差住宿标准是多少？"
FIRST = "出差住宿标准按城市分级执行，具体以差旅制度的住宿标准表为准。各级员工的标准不同，请先确认自己的职级。"
REST = "一线城市每晚不超过 600 元 [资料1]。"
WAITING = "正在回答上一个问题"
GONE = "不存在或已被删除"
PATIENCE_S = 120  # how long a blocked step may wait for the other side before the test gives up (never asserted)


def open_chat(assistant, monkeypatch, tmp_path: Path, conversation: str | None = None) -> AppTest:
    """A browser tab on the chat page (desktop mode), on `conversation` if given: a refresh is a new tab's run."""
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=PATIENCE_S)
    if conversation:
        at.query_params["c"] = conversation
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def assert_being_answered(at: AppTest, conversation: str) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not any(GONE in i.value for i in at.info), "the conversation being answered was called deleted"
    assert any(WAITING in i.value for i in at.info), [i.value for i in at.info]
    assert at.query_params.get("c") == conversation, at.query_params  # the address still names it
    assert QUESTION in shown(at)  # the question asked is on the page
    assert any(b.label == "刷新" for b in at.button)
    assert not at.chat_input[0].disabled  # a question sent meanwhile waits its turn (test_fix53b_chat_question_meanwhile)


def wait_until_answered(conversation: str) -> None:
    from ui.state import answering

    give_up = time.monotonic() + PATIENCE_S
    while answering("local", conversation) and time.monotonic() < give_up:
        time.sleep(0.05)


def refresh(at: AppTest) -> AppTest:
    next(b for b in at.button if b.label == "刷新").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def held(assistant: Any, monkeypatch: Any) -> tuple[threading.Event, threading.Event, dict[str, Any]]:
    """`ask` held before it starts, until `release` is set (the first question only)."""
    asked, release, where = threading.Event(), threading.Event(), {}
    real_ask = assistant.ask

    def held_ask(*args: Any, **kwargs: Any):
        if not asked.is_set():
            where["conversation"] = kwargs["conversation"]
            asked.set()
            release.wait(PATIENCE_S)
        return real_ask(*args, **kwargs)

    monkeypatch.setattr(assistant, "ask", held_ask)
    return asked, release, where


def test_a_refresh_while_the_first_answer_is_written_shows_it_being_answered(tmp_path, monkeypatch) -> None:
    """The offline answerer, held mid-ask in one tab; the refresh is a new session on the same address."""
    a = fake_assistant_with_samples(tmp_path / "store")
    asked, release, where = held(a, monkeypatch)
    tab = open_chat(a, monkeypatch, tmp_path)
    asking = threading.Thread(target=lambda: tab.chat_input[0].set_value(QUESTION).run(), daemon=True)
    asking.start()
    try:
        assert asked.wait(PATIENCE_S)
        conversation = where["conversation"]
        running = Runtime._instance  # AppTest's stand-in runtime of the held run: the refresh's run ends by unsetting it
        try:
            refreshed = open_chat(a, monkeypatch, tmp_path, conversation)
        finally:
            Runtime._instance = running
        assert_being_answered(refreshed, conversation)
    finally:
        release.set()
        asking.join(PATIENCE_S)
    assert not tab.exception, [e.value for e in tab.exception]
    refresh(refreshed)  # the turn has landed: drawn from the store
    assert not any(WAITING in i.value for i in refreshed.info)
    assert QUESTION in shown(refreshed) and "住宿" in shown(refreshed)
    assert refreshed.query_params.get("c") == conversation
    assert not refreshed.chat_input[0].disabled
    assert [c.id for c in a.list_conversations("local", actor=LOCAL)] == [conversation]


class HeldLLM(QueuedLLM):
    """A model that writes its first sentences (enough for the masking stream to pass them on), then waits until
    `release` is set before the rest."""

    def __init__(self, first: str, rest: str) -> None:
        super().__init__()
        self.first, self.rest = first, rest
        self.writing, self.release = threading.Event(), threading.Event()

    def stream(self, prompt: str) -> Iterator[str]:
        self.prompts.append(prompt)

        def held() -> Iterator[str]:
            yield self.first
            self.writing.set()
            self.release.wait(PATIENCE_S)
            yield self.rest

        return held()


def test_back_while_a_model_writes_the_first_answer_shows_it_being_answered(tmp_path, monkeypatch) -> None:
    """The model's stream: the person leaves the page (its run is stopped, as Streamlit stops it when another page is
    opened) while the worker goes on writing; Back runs the page again in the same session, a refresh in a new one."""
    import ui.inert

    llm = HeldLLM(FIRST, REST)
    a = fake_assistant_with_samples(tmp_path / "store", llm=llm, llm_api_key="test-key", llm_model_id="test-model")
    real_inert = ui.inert.inert_markdown
    stopped: list[bool] = []

    def leave_the_page(text: str) -> str:  # the first piece drawn: the person opens 文档管理 (the run is stopped)
        if not stopped:
            stopped.append(True)
            raise StopException()
        return real_inert(text)

    monkeypatch.setattr(ui.inert, "inert_markdown", leave_the_page)
    tab = open_chat(a, monkeypatch, tmp_path)
    try:
        tab.chat_input[0].set_value(QUESTION).run()
        assert stopped and llm.writing.wait(PATIENCE_S)
        conversation = tab.query_params.get("c")
        assert conversation
        tab.run()  # Back: the chat page again, same session, same address
        assert_being_answered(tab, conversation)
        refreshed = open_chat(a, monkeypatch, tmp_path, conversation)  # a refresh: a new session
        assert_being_answered(refreshed, conversation)
    finally:
        llm.release.set()
    wait_until_answered(conversation)
    for at in (refresh(tab), refresh(refreshed)):
        assert not any(WAITING in i.value for i in at.info)
        assert not any(GONE in i.value for i in at.info)
        assert "600 元" in shown(at)
    assert [c.id for c in a.list_conversations("local", actor=LOCAL)] == [conversation]


def test_an_address_neither_stored_nor_being_answered_is_still_gone(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    at = open_chat(a, monkeypatch, tmp_path, "no-such-conversation")
    assert any(GONE in i.value for i in at.info)
    assert "c" not in at.query_params
    assert not at.chat_input[0].disabled
