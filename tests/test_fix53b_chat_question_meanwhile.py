"""A question sent while the answer before it is still being written waits its turn; it is never thrown away
(fake embedder, real stores, AppTest; review 53 #1).

Streamlit's fast reruns run the page again, in the same session, while the first run is still inside `ask`. That run
found the answer in flight and drew the chat box disabled: a disabled box returns None, so the second question was
cleared from the box and lost. A refresh (a new session on the same address) runs the same code on the same
process-wide list of asks in flight, so it stands in for the fast rerun here."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from fakes import fake_assistant_with_samples
from streamlit.runtime import Runtime
from test_chat_fix51_answer_in_flight import (
    LOCAL,
    PATIENCE_S,
    QUESTION,
    WAITING,
    held,
    open_chat,
    shown,
    wait_until_answered,
)

FOLLOW_UP = "那一线城市呢？"
WAITS = "上一个问题还在回答，这个问题会接着回答"


def notices(at: Any) -> list[str]:
    return [i.value for i in at.info]


def test_a_question_sent_while_the_first_answer_is_written_is_answered_after_it(tmp_path: Path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    asked, release, where = held(a, monkeypatch)
    tab = open_chat(a, monkeypatch, tmp_path)
    asking = threading.Thread(target=lambda: tab.chat_input[0].set_value(QUESTION).run(), daemon=True)
    asking.start()
    try:
        assert asked.wait(PATIENCE_S)
        conversation = where["conversation"]
        running = Runtime._instance  # the held run's stand-in runtime: a run of another AppTest ends by unsetting it
        try:
            again = open_chat(a, monkeypatch, tmp_path, conversation)  # the page run again while the answer is written
            assert any(WAITING in n for n in notices(again))
            assert not again.chat_input[0].disabled  # a disabled box drops what is sent into it
            again.chat_input[0].set_value(FOLLOW_UP).run()
            assert not again.exception, [e.value for e in again.exception]
            assert FOLLOW_UP in shown(again), "the question sent meanwhile is not on the page"
            assert any(WAITS in n and FOLLOW_UP in n for n in notices(again)), notices(again)
            assert again.query_params.get("c") == conversation  # kept in the conversation being answered
            refreshed = open_chat(a, monkeypatch, tmp_path, conversation)  # a refresh still shows it waiting
            assert any(WAITS in n and FOLLOW_UP in n for n in notices(refreshed)), notices(refreshed)
        finally:
            Runtime._instance = running
    finally:
        release.set()
        asking.join(PATIENCE_S)
    assert not tab.exception, [e.value for e in tab.exception]
    wait_until_answered(conversation)
    again.run()  # the page's watch reruns it once the first answer is stored: the waiting question is asked now
    assert not again.exception, [e.value for e in again.exception]
    assert not any(WAITS in n for n in notices(again))
    turns = a.get_conversation(conversation, actor=LOCAL).turns
    assert [t.question for t in turns] == [QUESTION, FOLLOW_UP]  # in the order sent, in the same conversation
    assert [c.id for c in a.list_conversations("local", actor=LOCAL)] == [conversation]
    refreshed.run()  # the other tab asks nothing twice
    assert len(a.get_conversation(conversation, actor=LOCAL).turns) == 2
    assert FOLLOW_UP in shown(refreshed)


def test_waiting_questions_are_asked_one_at_a_time_and_a_stopped_run_gives_its_back() -> None:
    """Taken and listed as answered at once (two tabs never both ask it); the next waits for that answer; a run
    stopped before it asks (a click elsewhere) puts it back first in line."""
    from ui.state import answering, next_question, wait_turn, waiting_questions

    wait_turn("someone", "c1", "问题一", "问题一")
    wait_turn("someone", "c1", "问题二", "问题二")
    taken = next_question("someone", "c1")
    assert taken is not None and taken[0] == "问题一"
    assert answering("someone", "c1") == ["问题一"] and waiting_questions("someone", "c1") == ["问题二"]
    assert next_question("someone", "c1") is None  # the second waits for the first's answer
    wait_turn("someone", "c1", taken[0], taken[1], first=True)
    taken[2]()
    assert waiting_questions("someone", "c1") == ["问题一", "问题二"]
    assert answering("someone", "c1") == []
    while (taken := next_question("someone", "c1")) is not None:  # leave the process-wide lists empty
        taken[2]()
    assert waiting_questions("someone", "c1") == [] and answering("someone", "c1") == []
