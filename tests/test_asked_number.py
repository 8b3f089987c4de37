"""An answer to a question that asks for a number (多少钱, 几天, 百分之几) quotes that number or refuses.

Found on real wage regulations: 最低工资标准具体是每个月多少钱 was "answered" with three sentences about
overtime pay that state no amount, and a question on deductions for damage quoted the clause without
its 20% cap. The texts below are written for these tests, in the style of such regulations.
"""

from __future__ import annotations

import re

import pytest

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.answer.llm import NOT_IN_POLICY
from rag_core.types import SourceRef

OVERTIME_BASE = SourceRef(
    number=1,
    text=(
        "第十二条 公司安排员工在标准工作时间以外工作的，应当支付加班工资，加班工资不计入最低工资标准。\n"
        "加班工资的计算基数按下列原则确定：\n"
        "（一）公司与员工约定的工资标准；\n"
        "（二）未约定的，按员工本人前十二个月的月平均工资计算；\n"
        "（三）无法确定工资标准的，按当地上年度职工月平均工资计算。\n"
        "月最低工资标准由当地人民政府规定并公布。"
    ),
    source="工资支付办法.md",
    section="第十二条 加班工资",
    chunk_id="pay@v1#4",
)
COLLECTIVE = SourceRef(
    number=2,
    text="第十三条 按照最低工资标准领取工资的员工占全体员工百分之二十以上的，工会可以要求集体协商工资分配办法。",
    source="工资支付办法.md",
    section="第十三条",
    chunk_id="pay@v1#5",
)
# regulation wording (用人单位, 劳动者), as the wage rules put it; the question's 公司 reaches it through the thesaurus
DAMAGE = SourceRef(
    number=1,
    text=(
        "第十六条 因劳动者本人原因给用人单位造成经济损失的，用人单位可按照劳动合同的约定要求其赔偿经济损失。"
        "经济损失的赔偿，可从劳动者本人的工资中扣除。但每月扣除的部分不得超过劳动者当月工资的２０％。"
        "若扣除后的剩余工资部分低于当地月最低工资标准，则按最低工资标准支付。"
    ),
    source="工资支付规定.md",
    section="第十六条",
    chunk_id="pay@v1#8",
)
WITHHOLDING = SourceRef(
    number=2,
    text=(
        "第十五条 用人单位不得克扣劳动者工资。有下列情况之一的，用人单位可以代扣劳动者工资：\n\n"
        "（一）用人单位代扣代缴的个人所得税；\n\n（二）用人单位代扣代缴的应由劳动者个人负担的各项社会保险费用；\n\n"
        "（三）法律、法规规定可以从劳动者工资中扣除的其他费用。"
    ),
    source="工资支付规定.md",
    section="第十五条",
    chunk_id="pay@v1#7",
)
GROUPS = {"公司": {"用人单位"}, "扣钱": {"罚款", "扣除工资", "克扣"}, "扣": {"罚款", "扣除工资", "克扣"}}


@pytest.fixture(scope="module")
def answerer() -> ExtractiveAnswerer:
    return ExtractiveAnswerer()


def _quoted(answer: str) -> list[str]:
    return re.findall(r"^- (.+) \[资料\d+\]$", answer, flags=re.M)


def test_a_number_question_answered_only_by_sentences_without_the_number_is_refused(answerer: ExtractiveAnswerer) -> None:
    answer = answerer.answer("郑州现在的最低工资标准具体是每个月多少钱？", [OVERTIME_BASE, COLLECTIVE])
    assert answer.startswith(NOT_IN_POLICY), answer
    assert "没有写明具体的数字" in answer


def test_the_sentence_stating_the_asked_number_is_quoted(answerer: ExtractiveAnswerer) -> None:
    question = "我不小心弄坏了公司的机器，公司每个月从我工资里扣钱赔，最多能扣多少？"
    answer = answerer.answer(question, [DAMAGE, WITHHOLDING], groups=GROUPS)
    assert not answer.startswith(NOT_IN_POLICY), answer
    assert any("２０％" in sentence for sentence in _quoted(answer)), answer


def test_an_age_in_full_years_is_no_length_of_time(answerer: ExtractiveAnswerer) -> None:
    """未满一周岁 states an age: 周岁 is not 周 (a week), so it does not answer 多长时间 (stop 44)."""
    clause = SourceRef(1, "女职工哺乳期内，不得安排其在哺乳未满一周岁的婴儿期间延长工作时间和夜班劳动。", "劳动法.md",
                       "第六十三条", "law@v1#63")
    answer = answerer.answer("哺乳期每天有多长时间喂奶？", [clause])
    assert answer.startswith(NOT_IN_POLICY) and "没有写明具体的数字" in answer, answer
    assert answerer.answer("哺乳假有几天？", [clause]).startswith(NOT_IN_POLICY)
    weeks = SourceRef(1, "女职工生育后，哺乳假为两周。", "劳动法.md", "第六十三条", "law@v1#63")  # a week is still a week
    assert not answerer.answer("哺乳假有多长时间？", [weeks]).startswith(NOT_IN_POLICY)
    assert not answerer.answer("哺乳假有几天？", [weeks]).startswith(NOT_IN_POLICY)
