"""The sentence that gives what the question asks for (a number, who, when) leads the offline answer."""

from __future__ import annotations

import pytest

from rag_core.answer.asks import asked_pattern, gives_asked
from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.types import SourceRef

# Sentences as real regulations write them: the condition first, the asked value after it.
WAGE = SourceRef(1, (
    "第十条 最低工资标准发布实施后，如相关因素发生变化，应当适时调整。"
    "最低工资标准每两年至少调整一次。"
), "最低工资规定.md", "第十条", "w@v1#0")
APPROVAL = SourceRef(1, (
    "确需乘坐出租车的，每人每天不超过150元。"
    "超出限额的部分，须经部门负责人审批后方可报销。"
), "差旅.md", "第八条 市内交通", "t@v1#0")
DOUBLE_PAY = SourceRef(1, (
    "用人单位自用工之日起超过一个月不满一年未订立书面劳动合同的，应当向劳动者每月支付两倍的工资。"
    "前款规定的两倍工资的起算时间为用工之日起满一个月的次日。"
), "实施条例.md", "第六条", "d@v1#0")


@pytest.mark.parametrize(
    ("question", "kind_of_sentence"),
    [("最低工资标准多久调一次", "每两年"), ("这个需要谁审批", "部门负责人"), ("这两倍工资从哪天开始起算", "次日")],
)
def test_what_is_asked_is_recognised(question: str, kind_of_sentence: str):
    pattern = asked_pattern(question)
    assert pattern is not None and gives_asked(pattern, kind_of_sentence)


def test_a_question_asking_nothing_in_particular_has_no_pattern():
    assert asked_pattern("打车费能报吗") is None


@pytest.mark.parametrize(
    ("question", "source", "lead"),
    [
        ("最低工资标准多久调整一次", WAGE, "每两年至少调整一次"),
        ("出租车费用超出限额需要谁审批", APPROVAL, "部门负责人审批"),
        ("两倍工资从哪天开始算", DOUBLE_PAY, "满一个月的次日"),
    ],
)
def test_the_sentence_giving_what_was_asked_leads(question: str, source: SourceRef, lead: str):
    answer = ExtractiveAnswerer().answer(question, [source])
    first_quote = next(line for line in answer.splitlines() if line.startswith("- "))
    assert lead in first_quote, answer
