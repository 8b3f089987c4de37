"""What the chat page's preemption tests share: the browser's next send stopping a run of the page (AppTest, fake
embedder, real stores).

Streamlit's fast reruns stop a run at its next Streamlit call when the browser sends again; the next run reads only
what that send carried. A test makes the send a `RerunException` with the widget states and address the browser
would send, raised from the Streamlit call at which a real run would have been stopped (`stop_at`). A tab on the
chat page: `app_support.open_chat`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from fakes import fake_assistant_with_samples
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner import RerunData
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException
from streamlit.testing.v1 import AppTest

from rag_core import Principal
from rag_core.assistant import Assistant

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")
PATIENCE_S = 120  # how long a poll waits for the page or a worker before the test gives up (never asserted)
SHOWN_KINDS = ("markdown", "info", "warning", "error", "success", "caption")


def sample_assistant(tmp_path: Path, **overrides: Any) -> Assistant:
    """A fresh store with the sample policies (fake embedder; `overrides`: a fake LLM or Settings fields)."""
    return fake_assistant_with_samples(tmp_path / "store", **overrides)


def asked(assistant: Assistant, question: str, user: str = "local", actor: Principal = LOCAL) -> str:
    """A new conversation of `user` holding one turn, `question` answered: its id."""
    conversation = assistant.new_conversation_id()
    assistant.ask(question, user=user, actor=actor, conversation=conversation)
    return conversation


def next_send(box_id: str | None = None, value: str | None = None, query: str = "",
              trigger: str | None = None) -> RerunException:
    """What the browser sends next: the box's new value and/or a button click (`trigger`: its widget id), with the
    address it has (`query`, e.g. "c=<id>"; empty: none)."""
    states = WidgetStates()
    if value is not None:
        widget = states.widgets.add()
        widget.id = box_id
        widget.chat_input_value.data = value
    if trigger is not None:
        widget = states.widgets.add()
        widget.id = trigger
        widget.trigger_value = True
    return RerunException(RerunData(widget_states=states, query_string=query))


def stop_at(monkeypatch: pytest.MonkeyPatch, where: str, nth: int,
            send: Callable[[], RerunException]) -> Callable[[], None]:
    """The `nth` call of `st.<where>` raises `send()`: the next send stops the run there. Returns what puts the real
    `st.<where>` back (the monkeypatch undoes it at the test's end anyway)."""
    real = getattr(st, where)
    calls: list[int] = []

    def stopped(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == nth:
            raise send()
        return real(*args, **kwargs)

    monkeypatch.setattr(st, where, stopped)
    return lambda: monkeypatch.setattr(st, where, real)


def conversations(assistant: Assistant, user: str = "local", actor: Principal = LOCAL) -> dict[str, list[str]]:
    """`user`'s stored conversations: id -> the questions of its turns, in order."""
    out = {}
    for conversation in assistant.list_conversations(user, actor=actor):
        _conversation, traces = assistant.open_conversation(conversation.id, actor=actor)
        out[conversation.id] = [t.question for t in traces]
    return out


def shown(at: AppTest) -> str:
    """Every text the page drew (markdown, notices, captions), one a line."""
    return "\n".join(str(element.value) for kind in SHOWN_KINDS for element in getattr(at, kind))


def until(done: Callable[[], bool], step: Callable[[], Any] = lambda: None, patience_s: float = PATIENCE_S) -> None:
    """Poll `done` (doing `step` between looks: a rerun of a tab) until it holds or `patience_s` has passed; the
    caller asserts what it waited for."""
    give_up = time.monotonic() + patience_s
    while not done() and time.monotonic() < give_up:
        time.sleep(0.05)
        step()
