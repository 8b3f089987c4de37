"""Review 52n2 #2: short Chinese amounts (九千五, 一千五至两千元) and years written with 〇 (二〇〇五年) are read
as said in the citation number check."""

from __future__ import annotations

import pytest

from rag_core.answer.citations import unsupported_sentences
from rag_core.answer.stated_numbers import quantities_in
from rag_core.text.numerals import chinese_numeral, quantity_spellings
from rag_core.types import SourceRef

CLAUSE = SourceRef(1, "本办法自2005年1月1日起施行，每月补贴1500元，出差补贴1500至2000元，年假15至20天。",
                   "p.md", "第一条", "p@v1#0")


def read(text: str) -> list[tuple[str, float, str | None]]:
    return [(q.written, q.value, q.unit) for q in quantities_in(text)]


@pytest.mark.parametrize("wrong", ["每月补贴九千五[资料1]。", "出差补贴九千五至两千元[资料1]。", "年假十五至三十天[资料1]。",
                                   "年假五至二十天[资料1]。"])
def test_a_wrong_short_amount_is_flagged(wrong: str) -> None:
    assert unsupported_sentences(wrong, [CLAUSE]) == [wrong]


@pytest.mark.parametrize("right", ["每月补贴一千五[资料1]。", "出差补贴一千五至两千元[资料1]。", "年假十五至二十天[资料1]。",
                                   "本办法自二〇〇五年一月一日起施行[资料1]。"])
def test_a_right_amount_or_year_passes(right: str) -> None:
    assert unsupported_sentences(right, [CLAUSE]) == []


@pytest.mark.parametrize(("text", "read_as"), [
    ("九千五", [("九千五", 9500.0, None)]),
    ("三百五，", [("三百五", 350.0, None)]),
    ("十万五", [("十万五", 105000.0, None)]),
    ("一千五至两千元", [("一千五", 1500.0, "money"), ("两千", 2000.0, "money")]),
    ("十五至二十天", [("十五", 15.0, "day"), ("二十", 20.0, "day")]),
    ("一至三千元", [("一", 1000.0, "money"), ("三千", 3000.0, "money")]),
    ("二〇〇五年", [("二〇〇五", 2005.0, "year")]),
    ("二〇二〇年", [("二〇二〇", 2020.0, "year")]),
    ("一〇〇元", [("一〇〇", 100.0, "money")]),
])
def test_reads(text: str, read_as: list) -> None:
    assert read(text) == read_as


@pytest.mark.parametrize(("text", "read_as"), [
    ("一百五十元", [("一百五十", 150.0, "money")]),
    ("三千零五元", [("三千零五", 3005.0, "money")]),
    ("一万五千五元", [("一万五千五", 15500.0, "money")]),
    ("十万五元", [("十万五", 105000.0, "money")]),
    ("三亿五元", [("三亿五", 350000000.0, "money")]),
    ("五一", []), ("五一劳动节放假", []), ("标准统一至五千元", [("五千", 5000.0, "money")]), ("十一五规划", []), ("第一百五条", []), ("统一标准", []), ("千万不要", []),
])
def test_kept_as_before(text: str, read_as: list) -> None:
    assert read(text) == read_as


def test_the_numeral_value_and_spelling_of_a_year_with_ling() -> None:
    assert [chinese_numeral(t) for t in ("二〇〇五", "二〇二〇", "一〇〇", "一零五", "一千零五", "二千〇五", "五一")] == [
        2005, 2020, 100, 105, 1005, 2005, None]
    assert quantity_spellings("二〇〇五年") == ["2005年"]
