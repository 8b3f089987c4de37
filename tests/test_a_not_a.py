"""A-not-A questions (补不补, 要不要贴, 包不包括, 算不算) are yes/no questions about the verb said once.

Before: 要是赶上周六补不补 was refused for not naming 「补不补」 and 要不要贴发票 for 「不要贴」, and only the
A-not-A forms in a list (能不能, 算不算, 给不给, 报不报 …) were yes/no questions.
"""

from __future__ import annotations

import pytest

from rag_core.answer.subject import is_yes_no, question_terms
from rag_core.text.asking import a_not_a


@pytest.mark.parametrize(("typed", "plain"), [
    ("要不要贴发票", " 要贴发票"),
    ("要是赶上周六补不补", "要是赶上周六 补"),
    ("经济补偿的月工资包不包括奖金", "经济补偿的月工资 包括奖金"),
    ("周末出去活动，算不算加班", "周末出去活动， 算加班"),
    ("可不可以请假", " 可以请假"),
    ("公司给不给员工买意外险", "公司 给员工买意外险"),
    ("七级伤残能不能申请提前退休", "七级伤残 能申请提前退休"),
    ("探亲假会不会把年休假占掉", "探亲假 会把年休假占掉"),
])
def test_an_a_not_a_question_is_its_verb_said_once(typed, plain):
    assert a_not_a(typed) == (plain, True)


@pytest.mark.parametrize(("typed", "terms"), [
    ("要是赶上周六补不补", ["要是", "赶上", "周六"]),
    ("要不要贴发票", ["发票"]),
    ("加班算不算工时", ["加班", "工时"]),
    ("最低工资里包不包括加班费", ["最低工资", "包括", "加班费"]),
])
def test_its_words_are_what_the_clause_must_name(typed, terms):
    assert question_terms(typed) == terms
    assert is_yes_no(typed)


@pytest.mark.parametrize("typed", [
    "年假有几天", "我不想去", "不不不", "迟到不扣钱吗", "不得不加班吗",
    "我们部门时不时要加班，加班费怎么算", "领导动不动就让周末加班，加班费怎么算",  # adverbs: they ask nothing
])
def test_other_questions_are_left_as_they_are(typed):
    assert a_not_a(typed) == (typed, False)
