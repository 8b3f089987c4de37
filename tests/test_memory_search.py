"""A question about the asker is also searched with what memory holds about them (Assistant.ask, stop 45).

The question alone (我一个月通讯费能补多少) names no post, so its search finds the clauses on the allowance in
general; what the person told (我是做客户服务的) picks the line written for their post. Real e5 and Chroma
(a copy of the sample store), real memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import open_assistant

from rag_core.evaluation.sessions import first_sentence
from rag_core.memory.text import with_facts

POLICY = Path(__file__).parent / "data" / "sessions" / "uploads" / "通讯补贴管理规定.md"
QUESTION = "我一个月通讯费能补多少？"


def test_facts_are_added_to_the_question_in_the_first_person():
    assert with_facts("我每个月能补多少", ["用户在销售部工作", "用户老婆没工作，用户下个月要当爸爸了"]) == (
        "我每个月能补多少（在销售部工作；老婆没工作，我下个月要当爸爸了）")
    assert with_facts("我每个月能补多少", []) == "我每个月能补多少"


@pytest.mark.integration
def test_what_the_asker_told_picks_the_line_written_for_them(store_copy):
    assistant = open_assistant(store_copy)
    assert assistant.ingest_file(POLICY).ok
    plain = assistant.ask(QUESTION, user="u2", conversation="c2")
    assert plain.memory_search == ""  # nothing told: the question alone
    assert assistant.ask("我是做客户服务的", user="u1", conversation="c1").acknowledged
    trace = assistant.ask(QUESTION, user="u1", conversation="c1")
    assert trace.memory_search == with_facts(QUESTION, [m.content for m in trace.memories])
    assert trace.search.query == trace.memory_search  # the trace shows what was searched
    assert trace.search_question == QUESTION  # the question itself is not rewritten
    assert "客户服务岗位员工，每人每月200元" in first_sentence(trace.answer), trace.answer
    assert "客户服务岗位员工" not in first_sentence(plain.answer), plain.answer
    # HR reviewing a 👎 sees the question and its clauses, not what the asker's memories hold
    assistant.record_feedback(trace, -1, reason="答非所问")
    [entry] = assistant.feedback_reviews(rating=-1)
    detail = assistant.feedback_detail(entry.id)
    assert "memory_search" not in detail.trace and detail.trace["query"] == QUESTION
    assert "客户服务的" not in str(detail.trace)
