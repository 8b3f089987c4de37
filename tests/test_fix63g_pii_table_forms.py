"""A label and its value as a table reader writes them (项目：家庭住址，内容：…), or set apart by 】, |, a short （…）."""

import pytest

from rag_core.text.pii import redact_text

ADDRESS = "杭州市西湖区文三路138号3单元501室"


@pytest.mark.parametrize("text", [
    f"项目：家庭住址，内容：{ADDRESS}",
    f"字段：住址，值：{ADDRESS}",
    f"【姓名】张三【住址】{ADDRESS}",
    f"住址（现居住地）：{ADDRESS}",
    f"住址 | {ADDRESS}",
])
def test_address_after_a_label_and_value_word_is_masked(text):
    masked = redact_text(text)
    assert "501" not in masked and "文三路" not in masked and "[住址]" in masked, masked


@pytest.mark.parametrize("text, placeholder", [
    ("项目：身份证号，内容：110101199003074515", "[身份证号]"),  # wrong check digit: the word says what it is
    ("项目：银行卡号，内容：6222021234567890124", "[银行卡号]"),  # not Luhn-valid
    ("身份证号（18位）：110101199003074515", "[身份证号]"),
    ("【身份证号】110101199003074515", "[身份证号]"),
    ("卡号 | 6222021234567890124", "[银行卡号]"),
])
def test_number_after_a_label_and_value_word_is_masked(text, placeholder):
    assert redact_text(text).endswith(placeholder), redact_text(text)


@pytest.mark.parametrize("text", [
    "住址：请填写现居住地址，内容需与身份证一致",  # no address after the value word
    "项目：工作年限，内容：3年",
    "地址栏（选填）：无",
])
def test_words_without_a_value_stay(text):
    assert redact_text(text) == text
