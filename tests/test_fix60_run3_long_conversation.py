"""Review 60 (rev-run #6): a long conversation opens on its most recent turns, not on every turn it ever had.

The chat page read and drew every turn (and its trace) on every run: 1,000 turns took 4.7 s a run, 10,000 timed out.
`open_conversation(last=)` reads only the recent turns (`Conversation.turn_count` still counts them all); the page
draws `TURNS_SHOWN` of them with 显示更早的对话 above (UI state only: a refresh shows the recent ones again). A turn
hidden from its reader because an earlier turn in its prompt quoted what they may no longer read stays hidden when
only the recent turns are read.
"""

from __future__ import annotations

import pytest
from app_support import open_chat
from fakes import fake_assistant_with_samples
from test_fix60_conv_context import _demoted

from rag_core.conversations.store import ConversationError
from rag_core.facade.turn_access import HIDDEN_TURN
from rag_core.types import Principal

OWNER = Principal("local", "admin")  # the desktop user the page acts as


def _long(a, turns: int, conversation: str = "c1") -> None:
    """A conversation of `turns` turns of `local`: two asked, the rest copies of the first (as the reviewer built it)."""
    a.ask("年假有几天？", user="local", conversation=conversation, actor=OWNER)
    a.ask("那病假呢？", user="local", conversation=conversation, actor=OWNER)
    first = a.conversations.turns(conversation, masked_traces=False)[0]
    for n in range(3, turns + 1):
        a.conversations.add_turn(conversation, f"第{n}问：年假有几天？", first.search_question, first.answer,
                                 {**first.trace, "question": f"第{n}问：年假有几天？", "turn": 0}, user="local")


# -- the engine -------------------------------------------------------------------------------------------------
def test_open_conversation_reads_only_the_last_turns_asked_for(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    _long(a, 12)
    whole, all_traces = a.open_conversation("c1", actor=OWNER)
    conv, traces = a.open_conversation("c1", actor=OWNER, last=5)
    assert conv.turn_count == whole.turn_count == 12
    assert [t.turn for t in conv.turns] == [t.turn for t in traces] == [8, 9, 10, 11, 12]
    assert [t.answer for t in traces] == [t.answer for t in all_traces[-5:]]
    assert [t.question for t in traces] == [t.question for t in all_traces[-5:]]
    assert len(a.open_conversation("c1", actor=OWNER, last=50)[1]) == 12  # fewer than asked for: all of them
    for bad in (0, -1, True, 2.5):
        with pytest.raises(ConversationError):
            a.open_conversation("c1", actor=OWNER, last=bad)


def test_a_turn_hidden_for_what_its_prompt_held_stays_hidden_when_only_recent_turns_are_read(tmp_path):
    """The second turn quoted only everyone's clauses; its answer repeated the first's managers' answer."""
    a, now = _demoted(tmp_path)
    a.set_user_role("mgr_zhou", "employee", ["managers"], actor=Principal("wang", "admin"))
    manager = Principal("mgr_zhou", "employee", ("managers",))
    a.ask("年假有几天？", user="mgr_zhou", actor=manager, conversation="m1")
    a.set_user_role("mgr_zhou", "employee", [], actor=Principal("wang", "admin"))
    third = a.ask("病假怎么请？", user="mgr_zhou", actor=now, conversation="m1")
    conv, traces = a.open_conversation("m1", actor=now, last=2)
    assert conv.turn_count == 3
    assert [t.answer for t in traces] == [HIDDEN_TURN, third.answer]
    assert [t.answer for t in conv.turns] == [HIDDEN_TURN, third.answer]


# -- the page ---------------------------------------------------------------------------------------------------
def _asked(at) -> list[str]:
    return [str(m.markdown[0].value) for m in at.chat_message if m.name == "user"]


def _earlier(at):
    return [b for b in at.button if b.label.startswith("显示更早的对话") and "轮" in b.label]


SHOWN = 50  # pages/chat.py TURNS_SHOWN


def test_the_chat_page_draws_the_recent_turns_and_more_on_request(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s")
    _long(a, 120)
    a.rate_turn("c1", 100, 1, actor=OWNER)
    at = open_chat(a, tmp_path, monkeypatch, conversation="c1")
    asked = _asked(at)
    assert len(asked) == SHOWN and asked[0].startswith("第71问") and asked[-1].startswith("第120问")
    [more] = _earlier(at)
    assert "还有 70 轮" in more.label
    assert any("共 120 轮" in c.value for c in at.caption)
    assert at.session_state["feedback_c1_100"] == 1  # the ratings come with the turns drawn
    assert "feedback_c1_20" not in at.session_state
    more.click().run()
    asked = _asked(at)
    assert len(asked) == 2 * SHOWN and asked[0].startswith("第21问")
    [more] = _earlier(at)
    assert "还有 20 轮" in more.label
    more.click().run()
    assert len(_asked(at)) == 120 and _asked(at)[0] == "年假有几天？" and not _earlier(at)
    # one more question: answered, and drawn after every turn shown so far
    at.chat_input[0].set_value("那婚假呢？").run()
    assert not at.exception, [e.value for e in at.exception]
    assert _asked(at)[-1] == "那婚假呢？"


def test_a_refresh_shows_the_recent_turns_again(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s")
    _long(a, 60)
    at = open_chat(a, tmp_path, monkeypatch, conversation="c1")
    _earlier(at)[0].click().run()
    assert len(_asked(at)) == 60
    again = open_chat(a, tmp_path, monkeypatch, conversation="c1")  # a new browser session on the same address
    assert len(_asked(again)) == SHOWN and "还有 10 轮" in _earlier(again)[0].label


def test_a_short_conversation_shows_every_turn_without_the_control(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s")
    _long(a, 3)
    at = open_chat(a, tmp_path, monkeypatch, conversation="c1")
    assert len(_asked(at)) == 3 and not _earlier(at)
