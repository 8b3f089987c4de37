"""While the offline quoter streams a document's sentences, they are drawn as written (a quoted '# 标题' or *强调* is no
markup even for the moment before the finished answer replaces them); a model's stream keeps its formatting, and the
offline answer that follows a model failing keeps none (the stored turn draws it literally: no bold for a moment).

`ask_streaming` is taken from pages/chat.py as written (the module runs its page when imported) and run with a
stand-in for the two Streamlit calls it makes."""

from __future__ import annotations

import ast
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fakes import QueuedLLM, fake_assistant

from rag_core import Formatted, Principal
from rag_core.answer.llm import LLMError
from ui.inert import escape_md, escape_quoted_lines, inert_markdown

LOCAL = Principal(user="local", role="admin")
CHAT = Path(__file__).resolve().parents[1] / "pages" / "chat.py"
CLAUSE = "事假制度\n\n第一条 事假须提前申请。# 事假工资 事假期间*不发*工资。\n"


class _Placeholder:
    def __init__(self, drawn: list[str]) -> None:
        self.drawn = drawn

    def markdown(self, text: str, **_: Any) -> None:
        self.drawn.append(text)

    def caption(self, text: str, **_: Any) -> None:  # the waiting line before the first piece: not the answer
        pass


def _ask_streaming(drawn: list[str]):
    tree = ast.parse(CHAT.read_text(encoding="utf-8"))
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)
                 and n.name in ("ask_streaming", "with_piece", "streamed_markdown")]
    stand_in = type("St", (), {"empty": staticmethod(lambda: _Placeholder(drawn))})
    namespace = {"st": stand_in, "queue": queue, "threading": threading, "Iterator": Iterator, "Any": Any,
                 "_DONE": object(), "actor": lambda: LOCAL, "escape_quoted_lines": escape_quoted_lines,
                 "inert_markdown": inert_markdown, "escape_md": escape_md, "AskTrace": object, "Assistant": object,
                 "Formatted": Formatted}
    exec(compile(ast.Module(functions, type_ignores=[]), str(CHAT), "exec"), namespace)
    return namespace["ask_streaming"]


def test_an_offline_stream_is_drawn_as_written(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "s")
    assert assistant.ingest_bytes(CLAUSE.encode(), "事假.txt", actor=LOCAL).ok
    drawn: list[str] = []
    _ask_streaming(drawn)(assistant, "事假期间发工资吗？", "local", None, assistant.new_conversation_id())
    assert drawn and "\\# 事假工资" in drawn[-1] and "\\*不发\\*" in drawn[-1], drawn[-1]


def test_a_model_stream_keeps_its_formatting(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "s", llm=QueuedLLM("事假期间**不发**工资 [资料1]。"))
    assert assistant.ingest_bytes(CLAUSE.encode(), "事假.txt", actor=LOCAL).ok
    drawn: list[str] = []
    _ask_streaming(drawn)(assistant, "事假期间发工资吗？", "local", None, assistant.new_conversation_id())
    assert drawn and "**不发**" in drawn[-1], drawn[-1]


class _DownLLM(QueuedLLM):
    def stream(self, prompt: str) -> Iterator[str]:
        raise LLMError("连接被拒绝", kind="connection")


def test_the_offline_answer_after_a_model_failure_is_drawn_as_written(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "s", llm=_DownLLM())
    assert assistant.ingest_bytes(CLAUSE.encode(), "事假.txt", actor=LOCAL).ok
    drawn: list[str] = []
    trace = _ask_streaming(drawn)(assistant, "事假期间发工资吗？", "local", None, assistant.new_conversation_id())
    assert "extractive" in trace.answerer, trace.answerer
    assert drawn and "\\# 事假工资" in drawn[-1] and "\\*不发\\*" in drawn[-1], drawn[-1]


def test_a_standard_answer_streams_with_its_markdown(tmp_path) -> None:
    """HR's 标准答复 keeps its markdown when stored (trace_view): streamed, it is `Formatted` too (review 251)."""
    assistant = fake_assistant(tmp_path / "s", llm=QueuedLLM())
    assert assistant.ingest_bytes(CLAUSE.encode(), "事假.txt", actor=LOCAL).ok
    assistant.add_standard_answer("事假期间发工资吗？", "事假期间**不发**工资。\n\n- 须提前申请", actor=LOCAL)
    drawn: list[str] = []
    trace = _ask_streaming(drawn)(assistant, "事假期间发工资吗？", "local", None, assistant.new_conversation_id())
    assert trace.answerer == "标准答复" and drawn and "**不发**" in drawn[-1], drawn[-1]
