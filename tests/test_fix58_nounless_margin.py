"""A question with no topic word of its own (要提前几天申请) takes its glued search when that reads answerable by
`NOUNLESS_MARGIN` (0.03) more than the question as typed; one naming a noun of its own still needs `GLUE_MARGIN`
(0.1). The answerability of both searches is set here, so the rule alone is tested."""

from __future__ import annotations

import pytest
from fakes import fake_assistant_with_samples

from rag_core.conversations.followup import NOUNLESS, SHORT, dependence


@pytest.fixture()
def assistant(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s")
    real = a.search

    def search(question, **kwargs):  # the typed question 0.92, the glued one 0.97: a lead of 0.05
        result = real(question, **kwargs)
        result.answerable = 0.97 if question.startswith("年假") else 0.92
        result.hits = result.hits or result.near_misses[:3]  # both searches find clauses
        return result

    monkeypatch.setattr(a, "search", search)
    return a


@pytest.mark.parametrize(("question", "reason", "glued"), [("要提前几天申请", NOUNLESS, True),
                                                           ("试用期的能休吗", SHORT, False)])
def test_the_margin_follows_the_reason(assistant, question, reason, glued):
    assert dependence(question) == reason
    assistant.ask("年假一年有几天？", user="u", conversation="c", remember=False)
    trace = assistant.ask(question, user="u", conversation="c", remember=False)
    assert (trace.search_question != question) is glued, trace.followup
