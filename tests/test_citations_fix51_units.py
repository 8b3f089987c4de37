"""Review 51f 1: the number check compares scaled values of the same kind, and reads no ordinal as a quantity.

A clause of 2 万元 supports 20000 (2万, 两万, 20,000 元), not 2, 2千 or 2元; 第五条 is the fifth
clause, not five of anything; 5天 is not supported by 5元.
"""

from __future__ import annotations

import pytest

from rag_core.answer.citations import check_citations, numbers_in, unsupported_sentences
from rag_core.types import SourceRef

WELFARE = [SourceRef(1, "第五条 员工重大疾病医疗补助每年最高 2 万元，由工会审批。", "welfare.md", "第五条", "w#0")]
LEAVE = [SourceRef(1, "第三条 员工入职满一年后每年享有带薪年假 5 天，病假工资按 80% 发放。", "leave.md", "第三条", "l#0")]


@pytest.mark.parametrize(
    "reply",
    ["医疗补助每年最高2元[资料1]。", "医疗补助每年最高2千[资料1]。", "医疗补助每年最高5元[资料1]。", "医疗补助每年最高2百[资料1]。"],
)
def test_an_amount_the_clause_does_not_state_is_unsupported(reply):
    assert check_citations(reply, WELFARE)[1].unsupported == [reply]


@pytest.mark.parametrize(
    "reply",
    [
        "医疗补助每年最高2万元[资料1]。",
        "医疗补助每年最高两万元[资料1]。",
        "医疗补助每年最高20,000元[资料1]。",
        "医疗补助每年最高 2 万元，见第五条[资料1]。",
        "根据第5条，医疗补助最高20000元[资料1]。",
    ],
)
def test_the_same_amount_in_another_spelling_is_supported(reply):
    assert check_citations(reply, WELFARE)[1].unsupported == []


def test_a_scaled_number_means_only_its_scaled_value():
    assert [v for _, v in numbers_in("2万元")] == [{20000.0}]
    assert [v for _, v in numbers_in("1.5千元，0.3万元，3亿元")] == [{1500.0}, {3000.0}, {300000000.0}]


@pytest.mark.parametrize("text", ["第五条", "第 5 条", "第十二章", "第3款", "第二次", "第1年"])
def test_an_ordinal_is_not_a_quantity(text):
    assert numbers_in(text) == []


def test_a_count_of_days_is_not_supported_by_the_same_count_of_money():
    assert unsupported_sentences("病假每年5元[资料1]。", LEAVE) == ["病假每年5元[资料1]。"]
    assert unsupported_sentences("病假工资按80天发放[资料1]。", LEAVE) == ["病假工资按80天发放[资料1]。"]
    assert unsupported_sentences("年假5个工作日，病假工资按百分之八十发放[资料1]。", LEAVE) == []
    assert unsupported_sentences("年假五天[资料1]。", LEAVE) == []


def test_a_number_without_a_unit_on_either_side_is_compared_by_value_only():
    table = [SourceRef(1, "城市 | 每晚上限\n一线 | 600", "t.md", "", "t#0")]
    assert unsupported_sentences("一线城市每晚上限600元[资料1]。", table) == []
    assert unsupported_sentences("医疗补助最高20000[资料1]。", WELFARE) == []


def test_a_range_shares_its_scale_and_unit():
    clause = [SourceRef(1, "奖励金额为 1-2 万元，假期 5至10天。", "r.md", "", "r#0")]
    assert unsupported_sentences("奖励1万至2万元[资料1]。", clause) == []
    assert unsupported_sentences("假期5天到10天[资料1]。", clause) == []
    assert unsupported_sentences("奖励1元至2万元[资料1]。", clause) == ["奖励1元至2万元[资料1]。"]
