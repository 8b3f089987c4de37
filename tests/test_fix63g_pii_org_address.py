"""An organisation's numbered address stays where its wording says so (公司人力资源部，地址：…, …301室人力资源部); a person's
record in the same shape is masked, and where the two readings conflict masking wins (review 321)."""

import pytest

from rag_core.text.pii import redact_text

PLACE = "杭州市西湖区文三路90号2幢301室"


@pytest.mark.parametrize("text", [
    f"培训在公司总部举行，地址：{PLACE}",
    # the forms kept before
    f"请寄到公司人力资源部，地址：{PLACE}",
    f"请寄到{PLACE}人力资源部",
    f"请寄到{PLACE} 人力资源部收",
])
def test_an_organisations_address_stays(text):
    assert redact_text(text) == text


@pytest.mark.parametrize("text", [
    f"部门：人力资源部，地址：{PLACE}",  # a form's field: an employee's record
    f"部门：人力资源部 地址：{PLACE}",
    f"部门：人力资源部\n地址：{PLACE}",  # the line before is a field, not a heading
    f"姓名：张三\n地址：{PLACE}",
    f"地址：{PLACE}",
    f"请寄到{PLACE}，谢谢",
    f"张三，男，人力资源部\n住址：{PLACE}",
    # review 321: a department after a comma or a space, or on the line above, is as often the person's own
    # (张三，地址：…3单元501室，财务部 / 王芳 市场部 地址：… / 李雷⏎技术中心⏎地址：…): masking wins, so these are masked too
    f"请寄到公司人力资源部（地址：{PLACE}）",
    f"请寄到公司人力资源部 地址：{PLACE}",
    f"请寄到{PLACE}，人力资源部收",
    f"人力资源部\n地址：{PLACE}\n电话：12333",
    "张三，地址：北京市朝阳区建国路88号3单元501室，财务部",
    "王芳 市场部 地址：上海市徐汇区漕溪北路88号2栋1502室",
    "李雷\n技术中心\n地址：杭州市西湖区文三路259号5幢302室",
])
def test_a_persons_address_is_masked(text):
    masked = redact_text(text)
    assert "301" not in masked and "[住址]" in masked, masked
