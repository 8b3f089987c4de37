"""The 问答 page in two browser tabs on one conversation: each run reads the rating from the store."""

from __future__ import annotations

from fakes import fake_assistant_with_samples
from test_s50b_chat import LOCAL, QUESTION, open_chat


def test_a_second_tab_shows_the_rating_given_in_the_first(tmp_path, monkeypatch) -> None:
    """Tab 2 kept showing no rating after tab 1 rated: the widget's state was only read from the store once."""
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(QUESTION, actor=LOCAL, conversation="c1")
    first = open_chat(a, tmp_path, monkeypatch, "c1")
    second = open_chat(a, tmp_path, monkeypatch, "c1")
    assert second.feedback[0].value is None
    first.feedback[0].set_value(1).run()
    assert not first.exception, [e.value for e in first.exception]
    second.run()  # its next rerun
    assert second.feedback[0].value == 1
    second.feedback[0].set_value(0).run()  # rated again in tab 2: it replaces
    assert not second.exception, [e.value for e in second.exception]
    assert [t.rating for t in a.get_conversation("c1").turns] == [-1]
    assert [e.rating for e in a.feedback_reviews()] == [-1]
    first.run()
    assert first.feedback[0].value == 0


def test_a_rating_taken_back_in_one_tab_is_taken_back_in_the_other(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(QUESTION, actor=LOCAL, conversation="c1")
    first = open_chat(a, tmp_path, monkeypatch, "c1")
    first.feedback[0].set_value(1).run()
    second = open_chat(a, tmp_path, monkeypatch, "c1")
    assert second.feedback[0].value == 1
    first.feedback[0].set_value(None).run()
    assert [t.rating for t in a.get_conversation("c1").turns] == [None]
    second.run()
    assert second.feedback[0].value is None
