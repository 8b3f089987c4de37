"""A sentence that allows in one clause and limits in another answers a yes/no question by the clause that names
what was asked: 可以提前转正，但实际试用时间不得少于… says 可以 to 能提前转正吗 (stop 63: fresh part, not written
against, verdict 5 -> 6 of 33 with none wrong; open 9 -> 10 of 64; switches unchanged). No verdict when a clause
ruling the other way names a word of the question, or when the asked words are only in the other clause."""

from __future__ import annotations

import pytest

from rag_core.answer.asks import asked_clause_polarity
from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.types import SourceRef

EARLY = "表现特别突出的员工，经部门负责人申请和人力资源部审核，可以提前转正，但实际试用时间不得少于约定试用期的一半。"


@pytest.fixture(scope="module")
def answerer() -> ExtractiveAnswerer:
    return ExtractiveAnswerer()


def test_the_clause_naming_what_was_asked_gives_the_verdict(answerer: ExtractiveAnswerer) -> None:
    assert asked_clause_polarity("表现好的话能提前转正吗", EARLY) == "可以"
    clause = SourceRef(1, EARLY, "试用期管理办法.md", "第六条 提前转正", "p@v1#6")
    assert answerer.answer("表现好的话能提前转正吗", [clause]).startswith("根据制度，可以：")


def test_no_verdict_when_the_limit_names_the_question_or_nothing_names_it() -> None:
    # the limit names 试用期, which the question asks about: it may be the answer, so none is given
    assert asked_clause_polarity("试用期能调休吗", "员工可以申请调休，但试用期内不得申请。") == ""
    assert asked_clause_polarity("能调休吗", "员工可以申请调休，但试用期内不得申请。") == "可以"
    # the asked words (保密费) are in no clause: the sentence's 可以 and 不得 answer something else
    assert asked_clause_polarity("会给保密费吗", "双方可以约定竞业限制条款，但竞业限制期限不得超过二年。") == ""
    # a sentence that sets a penalty permits nothing
    assert asked_clause_polarity("能收押金吗", "用人单位可以收取押金的，由劳动行政部门责令退还，并处以罚款。") == ""
