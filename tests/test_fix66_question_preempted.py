"""A question whose run is cut short by the next one sent is still asked, first, in the same conversation (fake
embedder, real stores, AppTest; CI at 158b737 lost one in the browser test of review 53 #1).

Streamlit's fast reruns stop a run at its next Streamlit call when the browser sends again, and the new run reads
only what the browser sent last: a question read from the box by a run stopped before its ask had started (the page
still drawing, or its own message being drawn) was gone, and the second question was answered alone, without the
first as its context. Here the browser's second send is a RerunException carrying the box's new value, raised from
the Streamlit call at which a real run would have been stopped."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from fakes import QueuedLLM, fake_assistant_with_samples
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner import RerunData
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException
from test_chat_fix51_answer_in_flight import LOCAL, PATIENCE_S, QUESTION, open_chat

FOLLOW_UP = "那一线城市呢？"


def second_send(stopped: list[str], where: str, box_id: str, value: str | None = FOLLOW_UP) -> RerunException:
    """What the browser sends when the follow-up is entered (`value` None: a send without it, a click elsewhere):
    the box's new value, and no address — the new one had not reached the browser yet."""
    stopped.append(where)
    states = WidgetStates()
    if value is not None:
        widget = states.widgets.add()
        widget.id = box_id
        widget.chat_input_value.data = value
    return RerunException(RerunData(widget_states=states, query_string=""))


def turns(a: Any) -> int:
    return sum(c.turn_count for c in a.list_conversations("local", actor=LOCAL))


def answered_in_one_conversation(a: Any, tab: Any) -> None:
    assert not tab.exception, [e.value for e in tab.exception]
    conversations = a.list_conversations("local", actor=LOCAL)
    assert len(conversations) == 1, [c.title for c in conversations]  # one conversation, both turns in it
    _conversation, traces = a.open_conversation(conversations[0].id, actor=LOCAL)
    assert [t.question for t in traces] == [QUESTION, FOLLOW_UP]  # each asked once, in the order sent
    assert tab.query_params.get("c") == conversations[0].id


@pytest.mark.parametrize(("where", "stops"), [("title", [1]), ("chat_message", [1]), ("chat_message", [2]),
                                              ("chat_message", [1, 2])])
def test_a_question_whose_run_is_stopped_by_the_next_send_is_asked_first(tmp_path: Path, monkeypatch, where,
                                                                         stops) -> None:
    """Stopped at the `stops`-th call of `where`: `title` 1: the page is still drawn when the follow-up comes (before
    the box is read in the body); `chat_message` 1: the question's own message is being drawn; 2: the answer's (the
    address already names the new conversation) — its ask not started either way. [1, 2]: the run asking it again
    is stopped too, the follow-up already waiting its turn."""
    a = fake_assistant_with_samples(tmp_path / "store")
    tab = open_chat(a, monkeypatch, tmp_path)
    box_id = tab.chat_input[0].id
    real = getattr(st, where)
    calls: list[int] = []
    stopped: list[str] = []

    def cut_short(*args: Any, **kwargs: Any):
        calls.append(1)
        if len(calls) in stops:
            raise second_send(stopped, where, box_id, None if stopped else FOLLOW_UP)
        return real(*args, **kwargs)

    monkeypatch.setattr(st, where, cut_short)
    tab.chat_input[0].set_value(QUESTION).run()
    assert stopped == [where] * len(stops)
    answered_in_one_conversation(a, tab)


def test_a_question_whose_answer_is_being_written_is_not_asked_again(tmp_path: Path, monkeypatch) -> None:
    """The model's stream: the next send stops the run once the answer is being written (its worker goes on); the
    first question is answered once, the follow-up after it."""
    import ui.inert

    answer = "出差住宿标准按城市分级执行。一线城市每晚不超过 600 元 [资料1]。"
    llm = QueuedLLM(answer, "一线城市出差住宿标准是多少？", answer)  # the follow-up is rewritten first
    a = fake_assistant_with_samples(tmp_path / "store", llm=llm, llm_api_key="test-key", llm_model_id="test-model")
    tab = open_chat(a, monkeypatch, tmp_path)
    box_id = tab.chat_input[0].id
    real_inert = ui.inert.inert_markdown
    stopped: list[str] = []

    def cut_short(text: str) -> str:  # the first piece of the answer drawn
        if not stopped:
            raise second_send(stopped, "stream", box_id)
        return real_inert(text)

    monkeypatch.setattr(ui.inert, "inert_markdown", cut_short)
    tab.chat_input[0].set_value(QUESTION).run()
    assert stopped == ["stream"]
    give_up = time.monotonic() + PATIENCE_S
    while turns(a) < 2 and time.monotonic() < give_up:  # the follow-up waits its turn: asked once the first landed
        time.sleep(0.1)
        tab.run()
    answered_in_one_conversation(a, tab)
