"""An organisation's numbered address written the usual ways stays; a person's record in the same shape is masked."""

import pytest

from rag_core.text.pii import redact_text

PLACE = "杭州市西湖区文三路90号2幢301室"


@pytest.mark.parametrize("text", [
    f"请寄到公司人力资源部（地址：{PLACE}）",
    f"请寄到公司人力资源部(地址:{PLACE})",
    f"请寄到公司人力资源部 地址：{PLACE}",
    f"请寄到{PLACE}，人力资源部收",
    f"请寄到{PLACE}（人力资源部收）",
    f"人力资源部\n地址：{PLACE}\n电话：12333",
    f"## 人力资源部\n\n地址：{PLACE}",
    f"培训在公司总部举行，地址：{PLACE}",
    f"提交至财务共享中心（地址：{PLACE}）",
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
])
def test_a_persons_address_is_masked(text):
    masked = redact_text(text)
    assert "301" not in masked and "[住址]" in masked, masked
