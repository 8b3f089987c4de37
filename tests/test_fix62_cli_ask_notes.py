"""`ask` prints what the chat page shows beside a model's answer: the 未在资料中找到 marks and their note, the 依据较弱
note, the deleted made-up [资料N] and the 出处 of the cited clauses (review 62, CLI defect 1). Both take them from
`AnswerNotes`, so the two cannot drift apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import QueuedLLM, fake_assistant_with_samples

from rag_core import AnswerNotes
from rag_core.types import WEAK, AskTrace, CitationCheck, SearchResult, SourceRef

REPLY = "年假为15天，可以顺延至次年12月31日[资料1]。另见[资料7]。"


@pytest.fixture()
def model_answer(tmp_path: Path, monkeypatch):
    import rag_core.cli

    facade = fake_assistant_with_samples(tmp_path / "store", llm=QueuedLLM(REPLY))
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)
    return facade


def test_ask_prints_the_notes_the_chat_page_shows(model_answer, capsys) -> None:
    result = invoke(capsys, "ask", "年假有几天？", "--user", "alice")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "（未在资料中找到）" in out  # after the flagged sentence, as the page's badge
    assert AnswerNotes.UNSUPPORTED_NOTE in out
    assert AnswerNotes.WEAK_NOTE in out
    assert "模型引用了不存在的 [资料7]，已从回答中删除。" in out
    assert "出处：[资料1] 01_attendance_leave.md" in out
    # the notes come after the answer and before the hit count line
    lines = out.splitlines()
    assert lines[0].startswith("年假为15天") and lines[-1].startswith("（命中")


def _trace(answer: str, *, unsupported=(), removed=(), outcome: str = WEAK) -> AskTrace:
    sources = [SourceRef(1, "第一条 ……", "a.md", "第一章", "c1"), SourceRef(2, "第二条 ……", "b.md", "", "c2")]
    trace = AskTrace(question="q", answer=answer, search=SearchResult(query="q", hits=[object()]),  # type: ignore[list-item]
                     memories=[], prompt="", sources=sources, prompt_tokens=0, token_budget=0, dropped_hits=0,
                     answerer="m", outcome=outcome)
    trace.citations = CitationCheck(checked=True, removed=list(removed), unsupported=list(unsupported))
    return trace


def test_the_notes_in_plain_text() -> None:
    answer = "假期为5天[资料2]。另见[资料1]，[资料2]。"
    notes = AnswerNotes.of(_trace(answer, unsupported=["假期为5天[资料2"], removed=[9]))
    assert notes.weak and notes.cited_numbers == [2, 1]
    # a flagged sentence that ends inside a [资料N] is marked after it, never splitting it
    assert notes.marked(answer) == "假期为5天[资料2]（未在资料中找到）。另见[资料1]，[资料2]。"
    assert notes.lines() == [AnswerNotes.WEAK_NOTE, AnswerNotes.UNSUPPORTED_NOTE, "模型引用了不存在的 [资料9]，已从回答中删除。",
                             "出处：[资料2] b.md；[资料1] a.md · 第一章"]


def test_an_answer_that_says_it_is_weak_and_a_refusal_get_no_second_note() -> None:
    assert not AnswerNotes.of(_trace("依据较弱：年假5天[资料1]。")).weak
    refused = AnswerNotes.of(_trace("制度里没有写这一条[资料1]。", outcome="refused"))
    assert not refused.weak and not refused.cited and refused.lines() == []


def test_the_notes_read_citations_as_the_citation_check_does() -> None:
    """One reader of [资料N] (`answer.citations`): a list in one bracket names every source in it."""
    assert AnswerNotes.of(_trace("假期为5天[资料2、1]。")).cited_numbers == [2, 1]
