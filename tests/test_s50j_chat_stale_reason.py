"""A 👎's comment typed in a stale tab after another tab changed the rating (two AppTest tabs, one conversation).

record_reason always wrote a 👎 with the comment: HR's table then showed -1 while the turn kept the 👍 given in
the other tab (found by review). Now the stored rating is read first; the comment waits in its box instead."""

from __future__ import annotations

from fakes import fake_assistant_with_samples
from test_s50b_chat import LOCAL, QUESTION, open_chat

COMMENT = "我问的是住宿，回答讲的是交通"


def comment_box(at):
    return next(t for t in at.text_input if t.label == "补充说明（可选）")


def two_tabs_after_a_like_elsewhere(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(QUESTION, actor=LOCAL, conversation="c1")
    first = open_chat(a, tmp_path, monkeypatch, "c1")
    first.feedback[0].set_value(0).run()  # tab 1: 👎
    second = open_chat(a, tmp_path, monkeypatch, "c1")  # tab 2 shows the 👎 and its boxes
    assert second.feedback[0].value == 0
    first.feedback[0].set_value(1).run()  # tab 1 changes it to 👍; tab 2 has not rerun
    assert not first.exception, [e.value for e in first.exception]
    return a, first, second


def test_a_comment_in_a_stale_tab_does_not_turn_a_like_into_a_dislike(tmp_path, monkeypatch) -> None:
    a, _, second = two_tabs_after_a_like_elsewhere(tmp_path, monkeypatch)
    comment_box(second).set_value(COMMENT).run()
    assert not second.exception, [e.value for e in second.exception]
    assert [t.rating for t in a.get_conversation("c1").turns] == [1]
    assert [e.rating for e in a.feedback_reviews()] == [1], "HR's table says 👎 while the turn says 👍"
    assert not any(e.comment for e in a.feedback_reviews())
    assert any("另一个窗口" in t.value for t in second.toast)
    assert second.feedback[0].value == 1  # the stored rating
    assert comment_box(second).value == COMMENT  # what was typed is still there
    second.run()
    assert comment_box(second).value == COMMENT


def test_the_kept_comment_goes_with_a_dislike_given_again(tmp_path, monkeypatch) -> None:
    a, _, second = two_tabs_after_a_like_elsewhere(tmp_path, monkeypatch)
    comment_box(second).set_value(COMMENT).run()
    second.feedback[0].set_value(0).run()  # the person means it: 👎 again, here
    assert not second.exception, [e.value for e in second.exception]
    assert [t.rating for t in a.get_conversation("c1").turns] == [-1]
    assert [(e.rating, e.comment) for e in a.feedback_reviews()] == [(-1, COMMENT)]


def test_a_comment_while_the_dislike_still_stands_is_recorded(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(QUESTION, actor=LOCAL, conversation="c1")
    first = open_chat(a, tmp_path, monkeypatch, "c1")
    first.feedback[0].set_value(0).run()
    second = open_chat(a, tmp_path, monkeypatch, "c1")
    comment_box(second).set_value(COMMENT).run()
    assert not second.exception, [e.value for e in second.exception]
    assert [(e.rating, e.comment) for e in a.feedback_reviews()] == [(-1, COMMENT)]
