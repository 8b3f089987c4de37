"""What the engine says back about a statement ("好的，我记住了：…", `AskTrace.engine_tail`) repeats the person's words:
it is shown and exported as typed, never formatted, also after a model's answer whose own bold is kept (review 51d,
3 and 4)."""

from __future__ import annotations

from fakes import QueuedLLM, fake_assistant
from markdown_it import MarkdownIt

import ui.trace_view
from rag_core import Principal
from ui.trace_view import render_answer

LOCAL = Principal(user="local", role="admin")


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark").render(markdown)


def test_an_acknowledgement_after_a_model_answer_is_not_formatted_on_the_page(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant(tmp_path / "s", llm=QueuedLLM("员工年假为**五天** [资料1]。"))
    assert assistant.ingest_bytes("年假制度\n\n第一条 员工年假为五天。\n".encode(), "年假.txt", actor=LOCAL).ok
    trace = assistant.ask("我是 **研发部** 的 `经理`。年假有几天？", user="local", actor=LOCAL,
                          conversation=assistant.new_conversation_id())
    assert trace.engine_tail and trace.answer.endswith(trace.engine_tail)
    drawn: list[str] = []
    monkeypatch.setattr(ui.trace_view.st, "markdown", lambda text, **_: drawn.append(text))
    monkeypatch.setattr(ui.trace_view.st, "caption", lambda *a, **k: None)
    render_answer(trace, "t")
    shown = _html(drawn[0])
    assert "<strong>五天</strong>" in shown  # the model's own formatting stays
    assert "**研发部**" in shown and "`经理`" in shown and "<code>" not in shown, shown


def test_the_export_shows_an_acknowledgement_as_typed(tmp_path) -> None:
    offline = fake_assistant(tmp_path / "offline")
    told = offline.new_conversation_id()
    offline.ask("我叫 **王五**，我是 *研发部* 的经理", user="local", actor=LOCAL, conversation=told)
    exported = _html(offline.export_conversation_markdown(told, actor=LOCAL))
    assert "<strong>王五</strong>" not in exported and "<em>研发部</em>" not in exported, exported

    modelled = fake_assistant(tmp_path / "model", llm=QueuedLLM("员工年假为**五天** [资料1]。"))
    assert modelled.ingest_bytes("年假制度\n\n第一条 员工年假为五天。\n".encode(), "年假.txt", actor=LOCAL).ok
    asked = modelled.new_conversation_id()
    modelled.ask("我是 **研发部** 的 `经理`。年假有几天？", user="local", actor=LOCAL, conversation=asked)
    exported = _html(modelled.export_conversation_markdown(asked, actor=LOCAL))
    assert "<code>" not in exported and "<strong>研发部</strong>" not in exported, exported
    assert "<strong>五天</strong>" in exported  # the model's bold
