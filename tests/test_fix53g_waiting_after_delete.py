"""Questions waiting their turn do not outlive their conversation, and only a handful wait (fake embedder, real
stores, AppTest; review 53g).

A question sent while an answer is written waits in the server process (ui.state). Deleting the conversation left it
there: the next run on that address asked it, and `ask` stored the deleted conversation again under its id; with no
tab left on the address it stayed in memory for good. A person pasting a hundred questions meanwhile had them all kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import fake_assistant
from test_chat_fix51_answer_in_flight import GONE, LOCAL, open_chat

FIRST = "年假有几天？"
WAITS = "我手机13800138000，病假怎么请？"
NOT_ASKED = "没有提问"
CONVERSATION = "c1"


@pytest.fixture
def queue_left_empty() -> Iterator[None]:
    """The waiting list and the asks in flight are process-wide: each test leaves them as it found them."""
    from ui.state import answering, forget_waiting

    yield
    forget_waiting("local", CONVERSATION)
    assert answering("local", CONVERSATION) == []


def stored_once(tmp_path: Path) -> Any:
    a = fake_assistant(tmp_path / "store")
    a.ask(FIRST, user="local", conversation=CONVERSATION, actor=LOCAL)
    return a


def conversations(a: Any) -> list[str]:
    return [c.id for c in a.list_conversations("local", actor=LOCAL)]


def test_deleting_a_conversation_drops_the_questions_waiting_in_it(tmp_path: Path, monkeypatch,
                                                                   queue_left_empty) -> None:
    from ui.state import next_question, start_answering, wait_turn, waiting_questions

    a = stored_once(tmp_path)
    done = start_answering("local", CONVERSATION, "第二个问题")  # an answer still written: the page asks nothing yet
    try:
        assert wait_turn("local", CONVERSATION, WAITS, a.shown_text(WAITS))
        at = open_chat(a, monkeypatch, tmp_path, CONVERSATION)
        waiting = " ".join(i.value for i in at.info)
        assert "病假怎么请" in waiting and "13800138000" not in waiting  # drawn waiting its turn, masked
        at.button(key=f"delete_{CONVERSATION}").click().run()
        assert not at.exception, [e.value for e in at.exception]
    finally:
        done()
    assert waiting_questions("local", CONVERSATION) == []
    assert any(NOT_ASKED in s.value for s in at.success), [s.value for s in at.success]
    assert next_question("local", CONVERSATION) is None  # the review's repro: nothing left to ask
    again = open_chat(a, monkeypatch, tmp_path, CONVERSATION)  # another tab still on the deleted address
    assert any(GONE in i.value for i in again.info)
    assert conversations(a) == []  # not stored again under its id


def test_a_conversation_deleted_elsewhere_asks_nothing_that_waited_in_it(tmp_path: Path, monkeypatch,
                                                                         queue_left_empty) -> None:
    """Deleted by the CLI or another replica: this process's list never heard of it."""
    from ui.state import wait_turn, waiting_questions

    a = stored_once(tmp_path)
    wait_turn("local", CONVERSATION, WAITS, a.shown_text(WAITS))
    a.delete_conversation(CONVERSATION, actor=LOCAL)
    at = open_chat(a, monkeypatch, tmp_path, CONVERSATION)
    assert conversations(a) == []
    assert any(GONE in i.value and NOT_ASKED in i.value for i in at.info), [i.value for i in at.info]
    assert waiting_questions("local", CONVERSATION) == []  # not kept in server memory for good


def test_a_question_waiting_in_a_conversation_not_found_is_not_asked(tmp_path: Path, monkeypatch,
                                                                      queue_left_empty) -> None:
    """The ask in flight ends between the page's two looks (listed, then not found stored): the conversation is gone
    (deleted elsewhere), so the question that waited there is not asked — which stored it again."""
    from ui.state import start_answering, wait_turn, waiting_questions

    a = stored_once(tmp_path)
    a.delete_conversation(CONVERSATION, actor=LOCAL)
    done = start_answering("local", CONVERSATION, "第二个问题")
    wait_turn("local", CONVERSATION, WAITS, a.shown_text(WAITS))
    real_open = a.open_conversation

    def open_after_the_ask_ended(*args: Any, **kwargs: Any):
        done()
        return real_open(*args, **kwargs)

    monkeypatch.setattr(a, "open_conversation", open_after_the_ask_ended)
    try:
        at = open_chat(a, monkeypatch, tmp_path, CONVERSATION)
    finally:
        done()
    assert conversations(a) == [], "the deleted conversation was stored again by the question that waited in it"
    monkeypatch.setattr(a, "open_conversation", real_open)
    if not any(GONE in i.value for i in at.info):  # (the app may run the page twice in one at.run())
        at.run()  # the page's next run (its watch) finds it gone
        assert not at.exception, [e.value for e in at.exception]
    assert any(GONE in i.value and NOT_ASKED in i.value for i in at.info), [i.value for i in at.info]
    assert waiting_questions("local", CONVERSATION) == [] and conversations(a) == []


def test_only_a_handful_of_questions_wait_and_the_rest_are_refused_in_chinese(tmp_path: Path, monkeypatch,
                                                                              queue_left_empty) -> None:
    from ui.state import WAITING_LIMIT, start_answering, wait_turn, waiting_questions

    a = stored_once(tmp_path)
    done = start_answering("local", CONVERSATION, "第二个问题")
    try:
        for number in range(WAITING_LIMIT):
            assert wait_turn("local", CONVERSATION, f"问题{number}", f"问题{number}")
        at = open_chat(a, monkeypatch, tmp_path, CONVERSATION)
        at.chat_input[0].set_value("再问一个：婚假几天？").run()
        assert not at.exception, [e.value for e in at.exception]
        assert len(waiting_questions("local", CONVERSATION)) == WAITING_LIMIT
        warned = " ".join(w.value for w in at.warning)
        assert "没有加入" in warned and "婚假几天" in warned, warned
        # a question taken to be asked and put back (its run stopped) is never the one refused
        assert wait_turn("local", CONVERSATION, "问题0", "问题0", first=True)
    finally:
        done()
