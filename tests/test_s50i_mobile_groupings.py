"""Grouped mobiles: a bare 86 before a loose split, and table rows that only add up to 11 digits (s50i 1, 2).

- 86 138 1 2345 678, 86-138-1-2345-678 and 86 138 123 45678 stayed whole: the loose-grouping rule refused
  a number after "86 " and the bare-86 prefix took only the usual 3-4-4 forms. The 86 now goes with the number.
- Any 3-4 groups adding up to 11 digits from 13-19 were read as a mobile: 工号 13 2 1500 3000 and a
  tab-separated table row lost their values. A loose split now starts with a mobile's 3-digit prefix
  (the 2-4-5 split 13 8123 45678 is kept) and never reads across a tab.
"""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact, redact_text


@pytest.mark.parametrize("number", [
    "86 138 1 2345 678", "86-138-1-2345-678", "86 138 123 45678", "86-138-123-45678", "86 138 1234 567 8",
])
def test_a_bare_86_before_a_loose_grouping_is_masked_with_it(number: str) -> None:
    assert redact_text(f"紧急联系人 {number}") == "紧急联系人 [手机号]"
    assert redact(f"紧急联系人 {number} 请保密").counts["mobile"] == 1


@pytest.mark.parametrize("text", [
    "紧急联系人 86 138-1-2345-678",  # the prefix's separator differs from the number's
    "文号 2086 138 1 2345 678",
    "比例 0.86 138 1 2345 678",
    "考核 86 15 20 30 45 60",
])
def test_86_that_is_not_the_number_s_prefix_is_never_masked_as_one(text: str) -> None:
    assert redact_text(text).startswith(text.split(" 1")[0])


@pytest.mark.parametrize("row", [
    "经理\t13\t2\t8000\t5000",
    "经理\t138\t1\t2345\t678",
    "主管\t15\t3\t12000\t500",
    "工号 13 2 1500 3000",
    "序号 金额：15 3 12000 500",
    "岗位 16 1 2000 3000",
    "人数 19 2 3000 4000",
    "13 2 1500 3000",
    "1500 3 2000 12",
])
def test_a_row_of_numbers_adding_up_to_11_digits_is_not_a_mobile(row: str) -> None:
    result = redact(row)
    assert result.text == row and result.total == 0


@pytest.mark.parametrize("number", ["138 1 2345 678", "138-1-2345-678", "138 123 45678", "138 1234 567 8",
                                    "13 8123 45678", "+86 138 1 2345 678"])
def test_a_loose_grouping_starting_with_a_mobile_prefix_is_still_masked(number: str) -> None:
    assert redact_text(f"联系电话 {number}，工作日可打") == "联系电话 [手机号]，工作日可打"
