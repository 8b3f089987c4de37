"""A bracketless or square-bracketed +86 goes with the mobile it prefixes (s50g 4).

86-138-1234-5678, 86 138 1234 5678 and [+86]13812345678 were masked as 86-[手机号], 86 [手机号] and
[+86][手机号]: only 86 before 11 contiguous digits, and (+86)/+86/0086, were read as a prefix.
"""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact, redact_text


@pytest.mark.parametrize("number", [
    "86-138-1234-5678", "86 138 1234 5678", "86 13812345678", "86-1381234-5678", "[+86]13812345678",
    "[86]138-1234-5678", "[+86] 138 1234 5678", "［＋８６］13812345678", "【+86】13812345678",
])
def test_a_country_code_prefix_is_masked_with_the_mobile(number: str) -> None:
    assert redact_text(f"紧急联系人张先生，{number}，工作日可打") == "紧急联系人张先生，[手机号]，工作日可打"
    assert redact(number).counts["mobile"] == 1


@pytest.mark.parametrize(("text", "masked"), [
    ("本季度考核得分 86-90 分", "本季度考核得分 86-90 分"),
    ("共86人，电话13812345678", "共86人，电话[手机号]"),
    ("编号 86123456789", "编号 86123456789"),
    ("岗位工资 86150 3000 2000", "岗位工资 86150 3000 2000"),
    ("比例 0.86 13812345678", "比例 0.86 [手机号]"),
    ("文号 2086-138-1234-5678", "文号 2086-[手机号]"),
])
def test_other_numbers_starting_with_86_stay(text: str, masked: str) -> None:
    """Only a bare 86 standing alone right before a whole mobile is read as its prefix."""
    assert redact_text(text) == masked
