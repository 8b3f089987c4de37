"""A [资料N] the person types in a statement is no citation of the answer (review 323).

我在销售部[资料3]工作，出差交通怎么报销？: the acknowledgement after the answer repeated the typed marker, and the page's
出处, the CLI's 出处 and the Markdown export's 引用的条款 all listed clause 3, which the answer never cited. The line the
engine repeats is shown neutralised, and citations are read from the answer without it (turns stored before too)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fakes import fake_assistant_with_samples

from rag_core.answer.answer_notes import AnswerNotes
from rag_core.conversations.export import cited_sources
from rag_core.types import Principal

LOCAL = Principal("local", "admin")
TOLD = "我在销售部[资料3]工作，出差交通怎么报销？"


@pytest.fixture(scope="module")
def turn(tmp_path_factory: pytest.TempPathFactory):
    assistant = fake_assistant_with_samples(tmp_path_factory.mktemp("told") / "s")
    trace = assistant.ask(TOLD, user="local", actor=LOCAL, conversation="c1")
    return assistant, trace


def test_the_acknowledgement_repeats_no_live_marker(turn) -> None:
    assistant, trace = turn
    assert trace.engine_tail and "销售部" in trace.engine_tail and "[资料3]" not in trace.engine_tail
    assert any(s.number == 3 for s in trace.sources)  # a clause 3 the answer could have cited
    assert "[资料3]" not in trace.answer
    assert 3 not in AnswerNotes.of(trace).cited_numbers
    assert "\n[资料3] " not in assistant.export_conversation_markdown("c1", actor=LOCAL)


def test_a_stored_tail_with_a_marker_cites_nothing(turn) -> None:
    _, trace = turn
    tail = "好的，我记住了：您在销售部[资料3]工作。以后回答会参考这些信息（不作为制度依据）。"  # as stored before the fix
    body = trace.answer[: -len(trace.engine_tail)].rstrip()
    old = replace(trace, answer=f"{body}\n\n{tail}", engine_tail=tail)
    assert 3 not in AnswerNotes.of(old).cited_numbers
    assert AnswerNotes.of(old).cited_numbers == AnswerNotes.of(trace).cited_numbers
    stored = {"answer": old.answer, "engine_tail": tail, "sources": [{"number": s.number} for s in trace.sources]}
    assert 3 not in [s["number"] for s in cited_sources(stored)]
