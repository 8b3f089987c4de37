"""The 问答 page and what it keeps, as a review of stop 49 found them (fake embedder, real stores)."""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import QueuedLLM, fake_assistant, fake_assistant_with_samples

from rag_core.types import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
QUESTION = "出差住宿标准是多少？"


def test_the_same_answer_rated_in_two_conversations_is_two_ratings(tmp_path) -> None:
    """HR's review kept one rating: the second overwrote the first (matched by question and answer)."""
    a = fake_assistant_with_samples(tmp_path / "store")
    first = a.ask(QUESTION, conversation="c1")
    a.record_feedback(first, 1)
    second = a.ask(QUESTION, conversation="c2")
    a.record_feedback(second, -1)
    assert sorted(e.rating for e in a.feedback_reviews()) == [-1, 1]


def test_a_dislikes_reason_stays_when_its_comment_comes_later(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    trace = a.ask(QUESTION, conversation="c1")
    a.record_feedback(trace, -1, reason="答非所问")
    a.record_feedback(trace, -1, comment="我问的是住宿，回答讲的是交通")
    [entry] = a.feedback_reviews()
    assert (entry.reason, entry.comment) == ("答非所问", "我问的是住宿，回答讲的是交通")
    a.record_feedback(trace, 1)
    [entry] = a.feedback_reviews()
    assert (entry.rating, entry.reason, entry.comment) == (1, "", "")  # a 👍 has no reason


def test_the_export_of_a_refusal_quotes_no_clause(tmp_path) -> None:
    """The page says the near clauses were not cited; the Markdown export listed them as 引用的条款."""
    a = fake_assistant_with_samples(tmp_path / "store", llm=QueuedLLM("制度里没有写这一条。"))
    trace = a.ask("病假工资怎么算？", conversation="c1")
    assert trace.outcome == "refused" and trace.sources
    assert "引用的条款" not in a.export_conversation_markdown("c1")


def open_chat(assistant, tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    return at


def test_a_question_over_the_limit_cannot_be_typed_and_is_echoed_masked(tmp_path, monkeypatch) -> None:
    """The box took any length, and a question the engine refused stayed on the page as typed, phone number
    and all (found by review)."""
    from rag_core.text.inputs import InputError

    a = fake_assistant(tmp_path / "store")
    at = open_chat(a, tmp_path, monkeypatch)
    # review 55h #3: at the engine's limit the browser box dropped a longer paste whole; the page refuses it instead
    assert at.chat_input[0].max_chars > a.MAX_QUESTION_CHARS

    def refused(question, **kwargs):
        raise InputError("问题太长：617 个字，最多 500 个字")

    a.ask = refused
    at.chat_input[0].set_value("我的手机号13812345678，出差住宿标准是多少？").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("问题太长" in e.value for e in at.error)  # refused: the echo is what stays on the page
    shown = " ".join(m.value for m in at.markdown)
    assert "手机号" in shown and "13812345678" not in shown


def test_a_new_conversation_is_in_the_address_before_the_answer_comes(tmp_path, monkeypatch) -> None:
    """A refresh while the first answer was written opened an empty new conversation."""
    import streamlit as st

    a = fake_assistant_with_samples(tmp_path / "store")
    at = open_chat(a, tmp_path, monkeypatch)
    during: list[str] = []
    real_ask = a.ask

    def ask(question, **kwargs):
        during.append(st.query_params.get("c", ""))
        return real_ask(question, **kwargs)

    a.ask = ask
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception, [e.value for e in at.exception]
    assert during and during[0], during


def test_a_dislike_takes_a_comment_on_the_page(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(QUESTION, actor=Principal("local", "admin"), conversation="c1")
    at = open_chat(a, tmp_path, monkeypatch)
    at.query_params["c"] = "c1"
    at.run()
    at.feedback[0].set_value(0).run()  # clicked, so kept: each run shows the stored rating
    comment = next(t for t in at.text_input if t.label == "补充说明（可选）")
    comment.set_value("回答的是交通费，我问的是住宿").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.comment for e in a.feedback_reviews()] == ["回答的是交通费，我问的是住宿"]


def test_an_undone_statement_says_so_after_a_refresh(tmp_path) -> None:
    """The turn kept reading 好的，我记住了 after 撤销, although the memories were deleted (found by review)."""
    a = fake_assistant(tmp_path / "store")
    told = a.ask("我是财务部的张三，我常驻杭州", conversation="c1")
    assert told.acknowledged
    a.undo_acknowledged("c1", told.turn)
    a.undo_acknowledged("c1", told.turn)  # a second click says it once
    [turn] = a.get_conversation("c1").turns
    assert turn.trace["answer"].count("已撤销") == 1 and not turn.trace["acknowledged"]
    assert a.list_memories("local") == []


def test_a_rating_taken_back_leaves_none(tmp_path) -> None:
    """Clicking the chosen thumb again cleared the widget but kept the 👎 in the store and in HR's review; the
    page's callback now calls `withdraw_feedback` when the thumb's value goes back to none."""
    a = fake_assistant_with_samples(tmp_path / "store")
    trace = a.ask(QUESTION, conversation="c1")
    a.rate_turn("c1", trace.turn, -1)
    a.record_feedback(trace, -1, reason="答非所问")
    assert [t.rating for t in a.get_conversation("c1").turns] == [-1] and a.feedback_reviews()
    a.withdraw_feedback(trace)
    assert [t.rating for t in a.get_conversation("c1").turns] == [None]
    assert a.feedback_reviews() == []
