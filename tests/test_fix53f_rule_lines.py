"""Review 53 (fixes) #1: a short unpunctuated rule opening a chunk is a rule, not a document title.

Commits 9102e21 / 56c539f took any short, unpunctuated, numberless line that opens a chunk on its own line
for a title, in every chunk: 试用期员工不享受年终奖 (a Word list item) was never quoted, and the answer quoted
the next rule in its place. A title stands only at the start of a document's first chunk, and a line that
states a rule is never one.
"""

from __future__ import annotations

import re

import pytest

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.types import SourceRef

QUOTE = re.compile(r"^- (.+) \[资料(\d+)\]$")
SECOND = "第二条 年终奖根据公司年度经营情况和个人绩效发放。"


def _quoted(answer: str) -> list[str]:
    return [m.group(1) for line in answer.split("\n") if (m := QUOTE.match(line))]


def _chunk(first: str, index: int) -> SourceRef:
    return SourceRef(number=1, text=f"{first}\n{SECOND}\n", source="员工手册.docx", section="第五章 福利",
                     chunk_id=f"d@v1#{index}")


@pytest.mark.parametrize(("rule", "question"), [("试用期员工不享受年终奖", "试用期员工有年终奖吗？"),
                                                 ("病假期间不发放全勤奖", "病假期间有全勤奖吗？")])
def test_fix53f_a_short_rule_opening_a_later_chunk_is_quoted(rule, question):
    answer = ExtractiveAnswerer().answer(question, [_chunk(rule, 3)])
    assert rule in _quoted(answer)
    assert answer.startswith("根据制度，不可以") or rule == "病假期间不发放全勤奖"


@pytest.mark.parametrize(("rule", "question"), [("试用期员工不享受年终奖", "试用期员工有年终奖吗？"),
                                                 ("病假期间不发放全勤奖", "病假期间有全勤奖吗？")])
def test_fix53f_a_short_rule_opening_a_documents_first_chunk_is_quoted(rule, question):
    """Even where a title may stand, a line that states a rule (a denial, a normative word) is quoted."""
    assert rule in _quoted(ExtractiveAnswerer().answer(question, [_chunk(rule, 0)]))


def test_fix53f_a_short_title_line_of_a_documents_first_chunk_is_still_a_heading():
    rule = "第一条 女员工在婴儿一周岁以内，每天可享受一小时哺乳时间。"
    chunk = SourceRef(number=1, text=f"女职工哺乳期安排\n{rule}\n", source="scan_0042.pdf", section="",
                      chunk_id="d@v1#0")
    assert _quoted(ExtractiveAnswerer().answer("哺乳期每天有多长时间喂奶？", [chunk])) == [rule]

