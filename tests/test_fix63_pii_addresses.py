"""Review 63 (rev-pii D1): home addresses under common HR labels were stored and shown unmasked.

户籍所在地：…文三路138号3单元501室, 身份证地址：, 紧急联系人地址：, 家里地址是…, a bare 地址：…3单元501室 and typed
我搬到了… / 寄到… kept the whole address (only 户口所在地 and a fixed list of 地址 labels were read). A label ending in
地址/住址/所在地 that names a person's place is now read like 家庭住址; an organisation's label (公司地址) never; a bare
地址： or 寄到 only after a word for a person in its sentence (姓名：王五，地址：…, 寄到我家…; review own1 D1), so a
policy's stated address stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.text.pii import redact_text

MASKED = [
    ("户籍所在地：浙江省杭州市西湖区文三路138号3单元501室", "户籍所在地：浙江省杭州市西湖区[住址]"),
    ("身份证地址：浙江省温州市鹿城区人民路56号", "身份证地址：浙江省温州市鹿城区[住址]"),
    ("紧急联系人地址：杭州市滨江区江南大道100号2幢301", "紧急联系人地址：杭州市滨江区[住址]"),
    ("姓名：王五，地址：杭州市西湖区文三路138号3单元501室", "姓名：王五，地址：杭州市西湖区[住址]"),
    ("家里地址是杭州市西湖区文三路138号", "家里地址是杭州市西湖区[住址]"),
    ("我搬到了杭州市西湖区文三路138号3单元501室", "我搬到了杭州市西湖区[住址]"),
    ("寄到我家杭州市西湖区文三路138号3单元501室", "寄到我家杭州市西湖区[住址]"),
    ("员工户籍所在地：河南省郑州市金水区花园路12号", "员工户籍所在地：河南省郑州市金水区[住址]"),
    ("配偶地址：阳光花园小区5栋1201", "配偶地址：[住址]"),
    ("地址：杭州市西湖区文三路138号3单元501室", "地址：杭州市西湖区[住址]"),
    ("寄到杭州市西湖区文三路138号3单元501室", "寄到杭州市西湖区[住址]"),
]
KEPT = [  # a place a policy states: an office, a bare 地址 with one number, a city
    "地址：杭州市西湖区文三路90号",
    "公司地址：北京市朝阳区建国路88号",
    "公司地址：杭州市西湖区文三路90号华星大厦5楼501室",
    "用人单位所在地：杭州市西湖区文三路90号",
    "请将材料寄到杭州市西湖区文三路90号人力资源部",
    "户籍所在地与现居住地不一致的，由户籍所在地负责",
    "公司搬到了杭州市西湖区文三路90号",
    # review own1 D1: a bare label or 寄到 with no person in its sentence and no home's numbered pair is a policy's
    # place (review own3: with a pair, 地址：…3单元501室 and 寄到…3单元501室 are masked: a home masked is the rule)
    "地址：杭州市西湖区文三路138号",
    "寄到杭州市西湖区文三路138号",
]


@pytest.mark.parametrize(("said", "masked"), MASKED)
def test_an_address_under_a_label_naming_a_person_is_masked(said: str, masked: str) -> None:
    assert redact_text(said) == masked
    assert redact_text(masked) == masked


@pytest.mark.parametrize("text", KEPT)
def test_a_stated_place_stays(text: str) -> None:
    assert redact_text(text) == text


def test_a_registration_table_and_a_question_store_no_address(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path)
    doc = ("# 员工紧急联系信息登记表\n\n| 姓名 | 手机 | 地址 | 户籍所在地 | 紧急联系人地址 |\n| --- | --- | --- | --- | --- |\n"
           "| 王五 | 13500002222 | 杭州市西湖区文三路138号3单元501室 | 浙江省温州市鹿城区人民路56号2幢302室 |"
           " 杭州市滨江区江南大道100号2幢301 |\n")
    report = a.ingest_bytes(doc.encode(), "登记表.md")
    assert report.redactions.get("address") == 3
    trace = a.ask("我户籍所在地是浙江省温州市鹿城区人民路56号2幢302室，社保可以转过去吗", user="u1", conversation="c1")
    assert "人民路" not in trace.question
    for path in tmp_path.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            assert not any(bit.encode() in raw for bit in ("文三路138", "人民路56", "江南大道100")), path
