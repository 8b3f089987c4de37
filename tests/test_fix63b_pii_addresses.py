"""Review own1 D1 (and the cheap cases next to it): an organisation's or a workplace's address with 幢/栋/单元 + a
number was masked as a home (公司地址：…2幢301室, 新员工报到地址：…, 发票请寄至…2幢301室财务部), and a home after
寄到我家 / 张三的地址 / 紧急联系人：李四，地址： stayed raw.

Whose place a 地址/所在地 label names is read from its qualifier, the word nearest the label deciding (新员工报到地址:
报到, a purpose; 员工户籍所在地: 户籍, a person's). A bare label or 寄到/送至 takes an address only when the sentence
before it names a person (我, 本人, 家, 姓名, 收件人 …), and never one an office, department or room's name follows."""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact_text

KEPT = [
    "公司地址：杭州市西湖区文三路90号2幢301室",
    "单位地址：杭州市西湖区文三路90号2幢301室",
    "本公司注册地址为杭州市西湖区文三路90号2幢301室",
    "用人单位所在地：上海市浦东新区张江路100号3幢201",
    "劳动人事争议仲裁委员会地址：杭州市上城区解放路18号3单元501室",
    "新员工报到地址：杭州市西湖区文三路90号2幢301室",
    "体检地址：杭州市西湖区体育场路100号门诊楼2栋3层",
    "培训地址：公司总部2栋301会议室",
    "总部地址：杭州市西湖区文三路90号2幢301室",
    "门店地址：杭州市西湖区文三路90号2幢301室",
    "项目部地址：杭州市西湖区文三路90号2幢301室",
    "办事地址：杭州市西湖区文三路90号2幢301室",
    "工作地点所在地：杭州市西湖区文三路90号2幢301室",
    "公司联系地址：杭州市西湖区文三路90号2幢301室",
    "发票请寄至杭州市西湖区文三路90号2幢301室财务部",
    "纸质材料邮寄至：杭州市西湖区文三路90号2幢301室 人力资源部收",
    "我已将材料寄至杭州市西湖区文三路90号",
    "公司的地址：杭州市西湖区文三路90号2幢301室", "厂家地址：杭州市西湖区文三路90号2幢301室",
    # review own3: a bare label or 寄到 without a home's numbered pair (2幢301) stays when no person is named
    "报销单据请送至行政楼2栋301室", "地址：杭州市西湖区文三路90号", "联系人：王老师，地址：杭州市西湖区文三路90号",
    "员工本人须将档案寄到公司人力资源部，地址：杭州市西湖区文三路90号2幢301室",  # the clause before names the company
]
# Review own3: a bare label (or one whose qualifier names no organisation) or 寄到/送至 before a home's numbered pair is
# masked whoever's sentence it is: a company address with 2幢301室 masked by mistake is the lesser harm (these stayed).
MASKED_BY_THE_PAIR = [
    "面签地址：杭州市西湖区文三路90号2幢301室", "地址：杭州市西湖区文三路90号2幢301室",
    "联系人：王老师，地址：杭州市西湖区文三路90号2幢301室",
    "员工请将材料交至以下地址：杭州市西湖区文三路90号2幢301室", "员工说地址于杭州市西湖区文三路幸福家园3幢201室",
]
MASKED = [
    ("请寄到我家：杭州市西湖区文三路90号3幢201室", "请寄到我家：杭州市西湖区[住址]"),
    ("快递寄到我家，杭州市西湖区文三路90号3幢201室", "快递寄到我家，杭州市西湖区[住址]"),
    ("请将体检报告寄到我家里，杭州市西湖区文三路90号", "请将体检报告寄到我家里，杭州市西湖区[住址]"),
    ("员工张三的地址：文三路90号", "员工张三的地址：[住址]"),
    ("紧急联系人：李四，地址：上海市徐汇区漕溪北路88号", "紧急联系人：李四，地址：上海市徐汇区[住址]"),
    ("姓名：王五，地址：杭州市西湖区文三路138号3单元501室", "姓名：王五，地址：杭州市西湖区[住址]"),
    ("我的快递寄到杭州市西湖区文三路138号3单元501室", "我的快递寄到杭州市西湖区[住址]"),
    ("我的快递寄到杭州市西湖区文三路138号3单元501室请尽快处理", "我的快递寄到杭州市西湖区[住址]请尽快处理"),
    ("员工户籍所在地：河南省郑州市金水区花园路12号", "员工户籍所在地：河南省郑州市金水区[住址]"),
    ("员工家庭地址：杭州市西湖区文三路138号", "员工家庭地址：杭州市西湖区[住址]"),
    ("员工地址：杭州市西湖区文三路幸福家园3幢201室", "员工地址：杭州市西湖区[住址]"),
    ("收货人地址文三路幸福家园3幢201室", "收货人地址[住址]"),
]


@pytest.mark.parametrize("text", KEPT)
def test_an_organisations_or_a_workplaces_address_stays(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize(("text", "masked"), MASKED)
def test_a_persons_address_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_text(masked) == masked


@pytest.mark.parametrize("text", MASKED_BY_THE_PAIR)
def test_a_bare_label_before_a_homes_numbered_pair_is_masked(text: str) -> None:
    masked = redact_text(text)
    assert "[住址]" in masked and "301" not in masked and "201" not in masked
