"""After 撤销 the acknowledgement still repeats the person's words literally, with the undo note, on the chat page
and in the export (review rev51e 2: the note broke `engine_tail`, and the export still said 好的，我记住了 alone)."""

from __future__ import annotations

from fakes import QueuedLLM, fake_assistant
from markdown_it import MarkdownIt

import ui.trace_view
from rag_core import Principal
from rag_core.facade.conversations import UNDONE_NOTE
from ui.trace_view import render_answer

LOCAL = Principal(user="local", role="admin")
TOLD = "我是 **研发部** 的 `经理`。年假有几天？"


def undone(tmp_path):
    a = fake_assistant(tmp_path / "store", llm=QueuedLLM("员工年假为**五天** [资料1]。"))
    assert a.ingest_bytes("年假制度\n\n第一条 员工年假为五天。\n".encode(), "年假.txt", actor=LOCAL).ok
    conversation = a.new_conversation_id()
    trace = a.ask(TOLD, user="local", actor=LOCAL, conversation=conversation)
    assert trace.acknowledged and trace.engine_tail
    a.undo_acknowledged(conversation, trace.turn, actor=LOCAL)
    a.undo_acknowledged(conversation, trace.turn, actor=LOCAL)  # a second click changes nothing
    return a, conversation


def test_the_page_draws_the_undone_acknowledgement_as_typed(tmp_path, monkeypatch):
    a, conversation = undone(tmp_path)
    _conv, traces = a.open_conversation(conversation, actor=LOCAL)
    assert traces[-1].answer.count(UNDONE_NOTE) == 1 and traces[-1].answer.endswith(traces[-1].engine_tail)
    drawn: list[str] = []
    monkeypatch.setattr(ui.trace_view.st, "markdown", lambda text, **_: drawn.append(text))
    monkeypatch.setattr(ui.trace_view.st, "caption", lambda *a, **k: None)
    render_answer(traces[-1], "t")
    shown = MarkdownIt("commonmark").render(drawn[0])
    assert "<strong>五天</strong>" in shown  # the model's own bold stays
    assert "<code>" not in shown and "<strong>研发部</strong>" not in shown, shown
    assert "已撤销" in shown


def test_the_export_says_the_undo_and_keeps_the_typed_words_literal(tmp_path):
    a, conversation = undone(tmp_path)
    exported = a.export_conversation_markdown(conversation, actor=LOCAL)
    assert exported.count("已撤销") == 1, exported
    html = MarkdownIt("commonmark").render(exported)
    assert "<code>" not in html and "<strong>研发部</strong>" not in html, html
    assert a.conversations.turns(conversation)[-1].answer.endswith(UNDONE_NOTE)
