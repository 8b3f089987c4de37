"""A 👎's reason and comment read back by the person who gave it (fake embedder, real stores, AppTest).

They were kept only in HR's review table, which only HR may read: after a refresh the chat page showed the 👎
with empty boxes, as if the reason had been lost (found by review).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant_with_samples
from streamlit.testing.v1 import AppTest

from rag_core.errors import PermissionDenied
from rag_core.types import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")
QUESTION = "出差住宿标准是多少？"
COMMENT = "我问的是住宿，回答讲的是交通"


def open_chat(assistant, tmp_path: Path, monkeypatch, conversation: str) -> AppTest:
    """A fresh browser tab (new session state) on `conversation`: what a refresh is."""
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["c"] = conversation
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_dislikes_reason_and_comment_show_again_after_a_refresh(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(QUESTION, actor=LOCAL, conversation="c1")
    reason = a.feedback_reasons[0]
    at = open_chat(a, tmp_path, monkeypatch, "c1")
    at.feedback[0].set_value(0).run()
    next(s for s in at.selectbox if s.label == "👎 原因（可选）").set_value(reason).run()
    next(t for t in at.text_input if t.label == "补充说明（可选）").set_value(COMMENT).run()
    assert not at.exception, [e.value for e in at.exception]

    again = open_chat(a, tmp_path, monkeypatch, "c1")
    assert again.feedback[0].value == 0
    assert next(s for s in again.selectbox if s.label == "👎 原因（可选）").value == reason
    assert next(t for t in again.text_input if t.label == "补充说明（可选）").value == COMMENT


def test_only_the_asker_reads_back_their_ratings(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    bob, eve = Principal("bob", "employee"), Principal("eve", "employee")
    trace = a.ask(QUESTION, user="bob", actor=bob, conversation="c-bob")
    a.rate_turn("c-bob", trace.turn, -1, actor=bob)
    a.record_feedback(trace, -1, actor=bob, reason="答非所问", comment=COMMENT)
    kept = a.turn_feedback("c-bob", actor=bob)[trace.turn]
    assert (kept.rating, kept.reason, kept.comment) == (-1, "答非所问", COMMENT)
    with pytest.raises(PermissionDenied):
        a.turn_feedback("c-bob", actor=eve)
    refusals = [e for e in a.audit_entries(actor=LOCAL) if e.actor == "eve" and "c-bob" in e.target]
    assert [e.outcome for e in refusals] == ["refused"]
    a.withdraw_feedback(trace, actor=bob)
    assert a.turn_feedback("c-bob", actor=bob) == {}
