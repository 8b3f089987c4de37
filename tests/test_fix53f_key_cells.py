"""Review of 53's fixes #2: a grade or level the question states is the row's key, not the asked amount.

Commit 855d0f8 let a bare number under a column the question names state the asked amount in 元, so for
职级5的员工住宿标准是多少钱 the row 职级：5，住宿标准：另行规定 "stated" 5元 and was quoted, though it states no
amount. A cell whose value the question itself gives (职级5) answers nothing; the row must state the amount
in another cell.
"""

from __future__ import annotations

import pytest

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.answer.prompt import NOT_IN_POLICY
from rag_core.types import SourceRef


def _table(text: str) -> SourceRef:
    return SourceRef(number=1, text=text, source="差旅标准.xlsx", section="差旅标准", chunk_id="d@v1#1")


@pytest.mark.parametrize("question", ["职级5的员工住宿标准是多少钱？", "职级五的员工住宿标准是多少钱？"])
def test_fix53f_the_grade_asked_about_is_no_amount(question):
    rows = _table("职级：5，住宿标准：另行规定\n职级：6，住宿标准：另行规定\n")
    answer = ExtractiveAnswerer().answer(question, [rows])
    assert answer.startswith(NOT_IN_POLICY) and "没有写明具体的数字或标准" in answer


def test_fix53f_the_row_of_the_grade_asked_still_states_its_amount():
    rows = _table("职级：5，住宿标准：450\n职级：6，住宿标准：600\n")
    answer = ExtractiveAnswerer().answer("职级5的员工住宿标准是多少钱？", [rows])
    assert "- 职级：5，住宿标准：450 [资料1]" in answer.split("\n")
