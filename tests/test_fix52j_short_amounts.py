"""Review 52j #2: Chinese amounts said the short way (三千五, 一百五, 一万五千五) are read as said, so a correct answer
citing a clause of 3500元 is not flagged; the positional spellings keep their values."""

from __future__ import annotations

import pytest

from rag_core.answer.citations import unsupported_sentences
from rag_core.answer.stated_numbers import quantities_in
from rag_core.text.numerals import chinese_numeral
from rag_core.types import SourceRef


@pytest.mark.parametrize(
    ("text", "value"),
    [("三千五", 3500), ("两千五", 2500), ("一千二", 1200), ("一百五", 150), ("一万五千五", 15500),
     ("一千二百五", 1250), ("一万五", 15000),
     ("一千零五", 1005), ("三千零五十", 3050), ("两千", 2000), ("十五", 15), ("二十五", 25), ("一百零五", 105),
     ("一万零五", 10005)],
)
def test_a_lone_final_digit_counts_in_the_next_lower_place(text: str, value: int) -> None:
    assert chinese_numeral(text) == value
    assert [q.value for q in quantities_in(f"上限{text}元")] == [float(value)]


def test_three_hundred_million_and_a_half_is_read_as_said() -> None:
    assert [q.value for q in quantities_in("总额三亿五元")] == [350_000_000.0]


def test_a_correct_short_amount_is_not_flagged() -> None:
    clause = SourceRef(1, "一线城市住宿每晚上限 3500 元。", "travel.md", "第一条", "travel@v1#0")
    assert unsupported_sentences("住宿上限三千五元[资料1]。", [clause]) == []
    assert unsupported_sentences("住宿上限三千零五元[资料1]。", [clause]) == ["住宿上限三千零五元[资料1]。"]
