"""Loose mobile splits after a phone word or a country code (s50n).

c8d6b11 let a loose split count only when it starts with the 3-digit prefix (or is 2-4-5), so that value rows
(工号 13 2 1500 3000, 15000 300 500) keep their figures; 13812 345 678, 13 81 2345 678, 13812.345.678 and
+86 13812 345 678 were shown in full again, and 手机 13 8123 4567 8 came out as "[座机号] 8". Such a split is a
mobile when a phone word ends within 8 characters before it, or a country code (+86, 0086, (+86), a bare 86 with
the number's separator) leads it: the whole number and the code are masked. Without one it stays as written.
"""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact, redact_text


@pytest.mark.parametrize(("text", "masked"), [
    ("请联系 13812 345 678 报名", "请联系 [手机号] 报名"),
    ("请联系 13 81 2345 678 报名", "请联系 [手机号] 报名"),
    ("请联系 13812.345.678 报名", "请联系 [手机号] 报名"),
    ("拨打 +86 13812 345 678", "拨打 [手机号]"),
    ("手机 13 8123 4567 8", "手机 [手机号]"),
    ("86 13812 345 678", "[手机号]"),
    ("86-13812-345-678", "[手机号]"),
    ("0086 13 81 2345 678", "[手机号]"),
    ("(+86) 13812 345 678", "[手机号]"),
    ("Tel: 13812-345-678", "Tel: [手机号]"),
    ("来电请拨热线：1 3812 345 678。", "来电请拨热线：[手机号]。"),
    ("微信同号 1381 23 45678", "微信同号 [手机号]"),
])
def test_a_loose_split_after_a_phone_cue_is_masked_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact(text).counts == {**dict.fromkeys(redact(text).counts, 0), "mobile": 1}


@pytest.mark.parametrize("text", [
    "工号 13 2 1500 3000",
    "序号 金额：15 3 12000 500",
    "15000 300 500",
    "本月 15000 300 500 合计",
    "电话：见下表。15000 300 500",  # the cue ends its sentence
    "手机补贴 300，工资 15000 300 500 元",  # an amount
    "联系人\t13 2\t1500\t3000",  # a tab-separated row
    "电话 010-1234567 15000 300 500",  # a digit between cue and row
])
def test_value_rows_without_a_close_cue_stay(text: str) -> None:
    assert redact_text(text) == text


def test_a_cue_too_far_before_does_not_count() -> None:
    text = "联系我们的同事后再看这张表 13812 345 678"
    assert redact_text(text) == text


def test_a_placeholder_is_no_cue() -> None:
    assert redact_text("手机 13800138000 15000 300 500") == "手机 [手机号] 15000 300 500"


def test_the_3_digit_prefix_split_needs_no_cue() -> None:
    assert redact_text("名单 138 1 2345 678") == "名单 [手机号]"
    assert redact_text("名单 13812 345 678") == "名单 13812 345 678"


def test_idempotent() -> None:
    once = redact_text("请联系 13812 345 678 或 拨打 +86 13 81 2345 678")
    assert once == "请联系 [手机号] 或 拨打 [手机号]"
    assert redact_text(once) == once
