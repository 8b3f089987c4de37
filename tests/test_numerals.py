"""Quantities in either spelling: a clause writing 1年内 names the question's 一年 (text/numerals.py)."""

import pytest

from rag_core.search.answerability import missing_terms
from rag_core.text.numerals import chinese_spelling, names_quantity, quantity_spellings
from rag_core.text.vocabulary import names


@pytest.mark.parametrize(
    ("term", "spellings"),
    [
        ("一年", ["1年"]),
        ("一个月", ["1个月"]),
        ("两天", ["2天"]),
        ("30天", ["三十天"]),
        ("2天", ["二天", "两天"]),
        ("一百零五天", ["105天"]),
        ("一线", []),  # a numeral with no unit after it is no quantity: 一线城市
        ("三八", []),
        ("第一", []),
        ("10", []),
        ("百分之", []),  # a percent sign, not 100 of something
    ],
)
def test_a_quantity_has_its_other_spelling(term, spellings):
    assert quantity_spellings(term) == spellings


@pytest.mark.parametrize(("value", "spelled"), [(10, "十"), (15, "十五"), (30, "三十"), (105, "一百零五"), (2024, "二千零二十四")])
def test_chinese_spelling(value, spelled):
    assert chinese_spelling(value) == spelled


def test_the_other_spelling_names_a_quantity_but_not_inside_a_longer_number():
    assert names_quantity("一年", "婚假应自领取结婚证之日起1年内一次性休完")
    assert names_quantity("30天", "应当提前三十天以书面形式通知")
    assert not names_quantity("一年", "连续工作满11年的")  # 1年 is the end of 11年
    assert not names_quantity("十天", "每年二十天")  # 十天 is the end of 二十天
    assert not names_quantity("一年", "1.1年")
    assert names_quantity("一年", "1年内休完")  # at the very start of the text (review)
    assert not names_quantity("一年", "第1年")  # an ordinal
    assert not names_quantity("一日", "本制度自2024年1月1日起施行")  # a date
    assert not names_quantity("十分", "迟到10分钟")  # 十分 is "very", not ten minutes


def test_a_clause_writing_the_quantity_in_digits_does_not_lack_it():
    clause = "婚假应自领取结婚证之日起1年内一次性休完，逾期不予补休。"
    assert names("一年", clause, {})
    known, _scope = missing_terms(["领证", "一年"], clause, {}, {"领证": 0, "一年": 3})
    assert known == []
