"""A stated amount picks the band that holds it: 工作12年 → 已满10年不满20年的，年休假10天 leads the answer.

The amount may be in the question or in what the person told about themself (a
memory used for the answer).
"""

from __future__ import annotations

import pytest

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.answer.ranges import band_sentence, holds, number, stated_amounts
from rag_core.types import SourceRef

LEAVE = SourceRef(
    1, "第三条 职工累计工作已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天；已满20年的，年休假15天。",
    "职工带薪年休假条例.md", "第三条", "leave@v1#3", "依据充分",
)


@pytest.mark.parametrize(("text", "value"), [("12", 12), ("十二", 12), ("二十", 20), ("十", 10), ("两", 2), ("三", 3)])
def test_numbers(text: str, value: float) -> None:
    assert number(text) == value


def test_amounts_with_units_and_not_a_rate_period() -> None:
    assert stated_amounts(["我工作12年了，一年能休几天"]) == [(12.0, "年")]
    assert stated_amounts(["干了8个月的呢"]) == [(8.0, "月")]
    assert stated_amounts(["年假有几天"]) == []


@pytest.mark.parametrize(
    ("sentence", "amount", "inside"),
    [
        ("已满10年不满20年的，年休假10天", 12, True),
        ("已满10年不满20年的，年休假10天", 20, False),  # 不满 excludes the bound
        ("已满20年的，年休假15天", 20, True),  # 满 includes it
        ("培训费用在1万元以上3万元以下的，服务期为2年", 2, False),  # another unit
        ("年休假10天", 12, False),  # no band at all
    ],
)
def test_a_band_holds_an_amount(sentence: str, amount: float, inside: bool) -> None:
    assert holds(sentence, amount, "年") is inside


def test_the_band_sentence_is_found() -> None:
    sentences = ["已满1年不满10年的，年休假5天", "已满10年不满20年的，年休假10天", "已满20年的，年休假15天"]
    assert band_sentence(sentences, [(25.0, "年")]) == 2 and band_sentence(sentences, [(3.0, "月")]) is None


@pytest.mark.parametrize(
    ("question", "facts", "lead"),
    [
        ("工作满25年年休假几天", [], "已满20年的，年休假15天"),
        ("我一年能休几天年休假", ["用户参加工作12年了"], "已满10年不满20年的，年休假10天"),
        ("年休假有几天？", [], "第三条 职工累计工作已满1年不满10年的，年休假5天"),
    ],
)
def test_the_band_that_holds_the_stated_amount_leads(question: str, facts: list[str], lead: str) -> None:
    answer = ExtractiveAnswerer().answer(question, [LEAVE], facts=facts)
    assert answer.splitlines()[1].startswith(f"- {lead}"), answer
