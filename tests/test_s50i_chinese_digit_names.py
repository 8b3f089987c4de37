"""A landline or ID in Chinese digits right after a name ending in a digit character (s50i 3).

联系人王五零二一五五五五一二三四 stayed: the run 五零二一… is 12 digits no rule reads, and the name's
character was left out only when the rest was a mobile. The rest is now tried as a landline, an ID (its
check character must hold) or a card (its Luhn digit must hold) too; prose numerals stay.
"""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact, redact_text

ID = "一一零一零五一九九零零三零七一二三九"  # 110105199003071239: a valid check digit


@pytest.mark.parametrize(("text", "masked", "category"), [
    ("联系人王五零二一五五五五一二三四", "联系人王五[座机号]", "landline"),
    ("联系人王五零二一-五五五五一二三四", "联系人王五[座机号]", "landline"),
    ("请致电张三零七五五八八八八六六六六", "请致电张三[座机号]", "landline"),
    ("联系人王五" + ID, "联系人王五[身份证号]", "id_card"),
    ("员工刘一一" + ID + "已登记", "员工刘一一[身份证号]已登记", "id_card"),
    ("联系人王五六二二二零二一二三四五六七八九四", "联系人王五[银行卡号]", "bank_card"),
])
def test_a_name_ending_in_a_digit_character_does_not_hide_a_landline_or_id(
        text: str, masked: str, category: str) -> None:
    result = redact(text)
    assert result.text == masked and result.counts[category] == 1


def test_the_same_numbers_without_the_name_are_masked_alike() -> None:
    assert redact_text("座机零二一五五五五一二三四") == "座机[座机号]"
    assert redact_text("编号" + ID) == "编号[身份证号]"


@pytest.mark.parametrize("prose", [
    "第一百二十三条 报销", "住宿补贴三十五元", "二〇二四年一月一日起施行", "文号二〇二四一二三四五六七八九",
    "文号二〇二四一二三四五六七八", "编号一二三四五六七八九〇一二",
    "联系人王五一一零一零五一九九零零三零七一二三四",  # check digit wrong: not an ID
    "员工王五零一二三四五六七八九",  # 0 + 1…: no area code starts a local number with 1
    "编号一二三四五六七八九零一二三四五六七八",
])
def test_prose_numerals_and_numbers_without_evidence_stay(prose: str) -> None:
    assert redact_text(prose) == prose
