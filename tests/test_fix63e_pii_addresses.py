"""Review own3 D1-D4: the round that read whose place an address label names left homes raw that its parent masked.

- a label's qualifier ran over the line's end: 部门：人力资源部⏎地址：… read 人力资源部 as the label's qualifier;
- a bare label (nothing before it on its line, or a qualifier naming no organisation: 快递/宿舍/租房/新/张三 地址) took
  an address only after a word for a person, so a .docx form (paragraphs joined by a blank line) kept its 地址 raw;
- 寄到 a home's numbered pair needed a person word (离职证明请寄到…3单元501室，谢谢).
A bare label or 寄到 before a home's numbered pair (3单元501室, 2幢301, 12-3-501) is masked, except before an office's
name (…301室财务部), in an office building (行政楼2栋301室), or after a clause ending in an organisation's name."""

from __future__ import annotations

import io

import pytest

from rag_core.documents.parsing import parse_bytes
from rag_core.text.pii import redact_text

HOME = "杭州市西湖区文三路138号3单元501室"
OFFICE = "杭州市西湖区文三路90号2幢301室"


@pytest.mark.parametrize("before", ["部门：人力资源部", "岗位：项目经理", "入职公司：杭州某某科技有限公司", "工作单位：市第一医院"])
def test_the_line_before_is_not_the_labels_qualifier(before: str) -> None:
    assert redact_text(f"姓名：张三\n{before}\n地址：{HOME}") == f"姓名：张三\n{before}\n地址：杭州市西湖区[住址]"


def test_a_docx_forms_address_paragraph_is_masked() -> None:
    import docx

    document = docx.Document()
    for label, value in [("姓名", "张三"), ("手机", "13800138000"), ("地址", HOME)]:
        document.add_paragraph(f"{label}：{value}")
    data = io.BytesIO()
    document.save(data)
    text = parse_bytes(data.getvalue(), "登记表.docx", max_bytes=10_000_000).sections[0].text
    masked = redact_text(text)
    assert "501" not in masked and "[住址]" in masked and "[手机号]" in masked


@pytest.mark.parametrize("text", [
    f"快递地址：{HOME}", f"宿舍地址：{HOME}", f"租房地址：{HOME}", f"新地址：{HOME}", f"张三地址：{HOME}",
    f"王五（工号1234）地址：{HOME}", f"离职证明请寄到{HOME}，谢谢", f"麻烦把工资条寄到{HOME}，我是张三",
    f"姓名：张三；地址：{HOME}", f"张三，13800138000，地址：{HOME}", f"部门：人力资源部，地址：{HOME}",
    "寄到12-3-501", f"离职证明请送至{HOME}",
])
def test_a_homes_numbered_pair_after_a_bare_label_or_a_mailing_verb_is_masked(text: str) -> None:
    masked = redact_text(text)
    assert "501" not in masked and "[住址]" in masked
    assert redact_text(masked) == masked


@pytest.mark.parametrize("text", [
    f"员工本人须在入职后30日内将档案寄到公司人力资源部，地址：{OFFICE}",
    f"本人申请调岗至杭州分公司，地址：{OFFICE}",
    f"发票请寄至{OFFICE}财务部", "报销单据请送至行政楼2栋301室", f"公司地址：{OFFICE}", "地址：杭州市西湖区文三路90号",
])
def test_an_organisations_address_stays(text: str) -> None:
    assert redact_text(text) == text
