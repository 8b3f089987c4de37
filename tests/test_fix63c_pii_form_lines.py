"""A form's label lines run on without 。: 姓名：张三 on the line before makes the 地址： after it a person's, as in one
sentence; a policy's sentence ending in 。 ends that reading (a company address without a home's numbered pair stays).

Review own3: a bare 地址： before a home's numbered pair (3单元501室) is masked whatever comes before it (a .docx form's
paragraphs are joined by a blank line, which no longer ends the reading); these cases stayed raw before."""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact_text

HOME = "杭州市西湖区文三路138号3单元501室"
ROAD = "杭州市西湖区文三路138号"


def test_an_address_line_under_a_name_line_is_masked() -> None:
    assert redact_text(f"姓名：张三\n地址：{HOME}") == "姓名：张三\n地址：杭州市西湖区[住址]"
    assert redact_text(f"姓名：张三\n\n地址：{ROAD}") == "姓名：张三\n\n地址：杭州市西湖区[住址]"


BEFORE = ["本制度由人力资源部负责解释。\n", "姓名：张三\n\n", "人力资源部\n联系人：王老师\n", "员工信息登记表\n"]


@pytest.mark.parametrize("before", BEFORE)
def test_a_homes_numbered_pair_after_a_bare_label_is_masked(before: str) -> None:
    assert redact_text(f"{before}地址：{HOME}") == f"{before}地址：杭州市西湖区[住址]"


@pytest.mark.parametrize("before", ["本制度由人力资源部负责解释。\n", "人力资源部\n联系人：王老师\n", "员工信息登记表\n"])
def test_a_road_after_a_sentence_or_an_office_stays(before: str) -> None:
    text = f"{before}地址：{ROAD}"
    assert redact_text(text) == text
