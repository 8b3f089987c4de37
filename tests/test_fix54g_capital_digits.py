"""A mobile written in financial capital numerals (壹叁捌…) is masked; amounts in capitals stay (review 54g #3)."""

from __future__ import annotations

import pytest

from rag_core.text.digit_runs import number_runs, read_chinese_digits
from rag_core.text.pii import redact_text


@pytest.mark.parametrize("text", [
    "手机壹叁捌壹贰叁肆伍陆柒捌",
    "联系电话：壹叁捌 壹贰叁肆 伍陆柒捌",
    "手机壹叁捌-壹贰叁肆-伍陆柒捌，有事找他",
    "手机壹叁捌壹贰叁肆伍陆柒捌 ",
])
def test_capital_mobile_masked(text: str) -> None:
    masked = redact_text(text)
    assert "[手机号]" in masked
    assert "肆伍陆柒" not in masked


def test_capitals_read_as_digits() -> None:
    assert read_chinese_digits("壹叁捌壹贰叁肆伍陆柒捌") == "13812345678"
    assert read_chinese_digits("壹叁捌零壹贰〇肆伍陆柒") == "13801204567"
    assert read_chinese_digits("壹叁捌壹貳參肆伍陸柒捌") == "13812345678"  # the traditional forms
    assert number_runs("电话壹叁捌壹贰叁肆伍陆柒捌") == [(2, 13)]


@pytest.mark.parametrize("text", [
    "奖励壹万元", "补贴贰仟伍佰元", "合计人民币壹拾贰万叁仟肆佰伍拾陆元整", "叁年", "第贰拾条", "壹贰叁",
])
def test_capital_amounts_stay(text: str) -> None:
    assert redact_text(text) == text
    assert read_chinese_digits(text) == text
