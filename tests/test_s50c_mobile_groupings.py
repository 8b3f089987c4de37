"""Mainland mobile numbers in the groupings people write, masked whole; ordinary numbers left alone.

A review found 3-1-4-3 ("138 1 2345 678") and 3-3-5 splits unmasked, and a bracketed country code
"(+86)" left in front of the placeholder while "+86 " was masked with the number.
"""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact, redact_text

MUST_MASK = [
    "13812345678",
    "138-1234-5678",
    "138 1234 5678",
    "138.1234.5678",
    "1381234 5678",
    "1381 234 5678",
    "1381 2345 678",
    "138 1 2345 678",  # 3-1-4-3
    "138-1-2345-678",
    "138 123 45678",  # 3-3-5
    "13 8123 45678",  # 2-4-5
    "138 1234 567 8",  # 3-4-3-1
    "＋86 138 1234 5678",
    "+86 138 1234 5678",
    "+86 138 1 2345 678",
    "+86-138-1234-5678",
    "+8613812345678",
    "0086-13812345678",
    "0086 138 1234 5678",
    "(+86)13812345678",
    "（+86）13812345678",
    "(+86) 138-1234-5678",
    "(86)13812345678",
    "(0086)138 1234 5678",
]

MUST_NOT_MASK = [
    "2024-01-15",
    "2024 01 15",
    "1,380,000元",
    "138,000,000元",
    "第138条第1款",
    "人社部发〔2018〕138号",
    "23812345678",  # 11 digits, not 1[3-9]
    "12812345678",
    "138123456789",  # 12 digits
    "138 1 2345 6789",  # 12 digits grouped
    "192.168.100.10",  # an IP address: 11 digits, 19x, but no group of four
    "1.3.1234.5678",  # a version number
    "150 2 3000 600元",  # amounts in a row, with a unit
    "15 20 30 45 60",
    "5 138 1 2345 678",  # part of a longer grouped run
    "138 1 2345 678 9",
]


@pytest.mark.parametrize("number", MUST_MASK)
def test_a_mobile_in_any_usual_grouping_is_masked_whole(number: str) -> None:
    masked = redact_text(f"紧急联系人 {number} 请保密")
    assert masked == "紧急联系人 [手机号] 请保密"


@pytest.mark.parametrize("number", MUST_NOT_MASK)
def test_an_ordinary_number_is_not_taken_for_a_mobile(number: str) -> None:
    result = redact(f"依据 {number} 执行")
    assert result.text == f"依据 {number} 执行" and result.total == 0
