"""Review 334: a card read out digit by digit after its label, and a mobile spelled with spaces in a file name or a
sentence with no phone word before it, were stored raw (the grouped forms were masked).

A card's 16-19 digits set apart one by one are a card when they pass the issuer prefix and Luhn, or when a card word
names them (`text.pii_context._ACCOUNT`); eleven single digits 1[3-9]… set apart by spaces are a mobile in running text
or a name, but after a label's colon they are what the label says (评分：1 4 5 3 2 …, review 198).
"""

from __future__ import annotations

import re

import pytest
from fakes import fake_assistant

from rag_core.text.pii import redact_text

CARD = "6222021234567890128"  # Luhn-valid
MOBILE = "13812345678"


def _spaced(digits: str, sep: str = " ") -> str:
    return sep.join(digits)


@pytest.mark.parametrize("text", [
    f"张三的银行卡号：{_spaced(CARD)}，每月发放。", f"我的工资卡 {_spaced(CARD)}", f"卡号 {_spaced(CARD, '、')}",
    f"工资打到 {_spaced(CARD)} 这张卡", f"卡号：{_spaced('6222021234567890123')}",  # a card word needs no Luhn
])
def test_a_card_read_out_digit_by_digit_is_masked(text):
    assert "[银行卡号]" in redact_text(text) and not re.search(r"\d", redact_text(text))


@pytest.mark.parametrize("text", [
    f"张三 {_spaced(MOBILE)} 入职", f"找张三 {_spaced(MOBILE)}", f"员工张三 {_spaced(MOBILE)}，已入职。",
])
def test_a_mobile_spelled_with_spaces_is_masked_without_a_phone_word(text):
    assert "[手机号]" in redact_text(text) and MOBILE not in re.sub(r"\D", "", redact_text(text))


@pytest.mark.parametrize("text", [
    "满意度评分（11题）：1 4 5 3 2 4 5 5 3 4 2", "各月加班人数：1 5 3 2 0 4 1 2 3 3 1", "第1、3、8、1、2、3、4、5、6、7、8条",
    "138、1234、5678元", f"编号 {_spaced('6222021234567890123')}",  # no card word, Luhn fails: a row of digits
])
def test_rows_of_values_stay(text):
    assert redact_text(text) == text


def test_a_spelled_mobile_in_a_file_name_and_a_card_in_the_body_are_stored_masked(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    body = f"第一条 员工每年享有带薪年假五天。\n\n第二条 张三的银行卡号：{_spaced(CARD)}，每月发放。\n"
    report = assistant.ingest_bytes(body.encode(), f"张三 {_spaced(MOBILE)} 入职.md")
    assert report.ok, report.error
    stored = " ".join([report.doc_id, *(c.text for c in assistant.document_chunks(report.doc_id))])
    stored += " ".join(f"{d.title} {d.source}" for d in assistant.list_documents())
    assert "[银行卡号]" in stored and "[手机号]" in stored
    digits = re.sub(r"\D", "", stored)
    assert CARD not in digits and MOBILE not in digits


def test_chinese_digits_spelled_out_with_spaces_are_read_as_the_same_number():
    assert redact_text("年假 一 三 八 一 二 三 四 五 六 七 八") == "年假 [手机号]"


@pytest.mark.parametrize("text", [
    f"手机号 {'  '.join(MOBILE)}", f"身份证号 {'  '.join('110101199003071233')}", f"卡号：{'-'.join(CARD)}",
    f"电话 {'-'.join(MOBILE)}",
])
def test_numbers_spelled_with_two_spaces_or_hyphens_after_their_word_are_masked(text):
    """Review 336: only one space between the digits was read."""
    assert not re.search(r"\d", redact_text(text)), redact_text(text)


def test_a_row_of_scores_after_a_labels_colon_is_never_a_card():
    """Review 336: 16-19 one-digit scores after a colon passed Luhn one time in ten and were stored as [银行卡号]."""
    assert redact_text(f"16项考核评分：{_spaced(CARD)}") == f"16项考核评分：{_spaced(CARD)}"
    assert redact_text("第1-3-5条、2024-1-5") == "第1-3-5条、2024-1-5"


def test_an_id_in_its_groups_with_several_spaces_after_its_word_is_masked():
    """Review 337: only one space between the groups was read. (A mobile or card in its groups lined up by several
    spaces is not read: three rounds of rules for them masked rows of amounts lined up so; reviews 338, 339.)"""
    assert redact_text("身份证号 110105  19491231  002X") == "身份证号 [身份证号]"


@pytest.mark.parametrize("text", [
    "各月新入职人数  1  3  2  5  4  6  7  8  1  2  3", "各月 1-3-8-1-2-3-4-5-6-7-8", f"考核 {'-'.join(CARD)}",
    f"得分  {'  '.join(CARD)}",
])
def test_rows_lined_up_by_several_spaces_or_hyphens_need_the_numbers_word(text):
    """Review 337: the first fix masked such table rows as [手机号] and [银行卡号] with no phone or card word."""
    assert redact_text(text) == text


@pytest.mark.parametrize("text", ["电话费补贴（元）：150  2000  3000", "企业年金个人账户  800  1000  1200"])
def test_amounts_lined_up_after_a_word_holding_a_number_word_stay(text):
    """Review 338: the round before masked these as [手机号] and [银行卡号]."""
    assert redact_text(text) == text


@pytest.mark.parametrize("text", [
    "年度  2023  2024  2025  2026", "手机  100  200  300", "人事部电话  8012  8013", "咨询电话  12333  95588",
    "工资账号：1202  0210  0900  1234", "联系人：张三  138  0013  8000",
])
def test_groups_lined_up_by_several_spaces_stay_as_they_were(text):
    """Review 339: the third round's rules masked years, amounts, extensions and service lines lined up by spaces; such
    groups are read as before this stop (the last two, a person's numbers, are the cost: SECURITY.md)."""
    assert redact_text(text) == text
