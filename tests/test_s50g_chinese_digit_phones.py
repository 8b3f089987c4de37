"""A phone written in Chinese digits: next to a name that ends in a digit, and across a heading's cut (s50g 2, 3).

- 联系人王五一三八一二三四五六七八 read as one run of 12 Chinese digits, which no rule reads: the phone stayed.
  A name's last digit character is left out of the run when the rest is exactly a mobile.
- A heading is cut to 80 characters before masking; a cut inside 一三八一二三四五六七八 kept 一三八… too
  short (6 or fewer) to be read as a number. The cut now goes before the run, and 王五 keeps its 五.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.text.pii import redact, redact_text

PHONE = "一三八一二三四五六七八"


@pytest.mark.parametrize(("text", "kept"), [
    ("联系人王五一三八一二三四五六七八", "联系人王五[手机号]"),
    ("张三一三八一二三四五六七八，随时联系", "张三[手机号]，随时联系"),
    ("请联系刘一一三九八七六五四三二一", "请联系刘一[手机号]"),
    ("紧急联系人赵六一三八 一二三四 五六七八", "紧急联系人赵六[手机号]"),
])
def test_a_name_ending_in_a_digit_character_does_not_hide_the_phone_after_it(text: str, kept: str) -> None:
    assert redact_text(text) == kept
    assert redact(text).counts["mobile"] == 1


@pytest.mark.parametrize("prose", [
    "第一百二十三条 报销", "住宿补贴三十五元", "二〇二四年一月一日起施行", "文号二〇二四一二三四五六七八九",
    "五一三八一二三四五六七八", "编号一二三四五六七八九〇一二",
])
def test_chinese_numerals_in_prose_stay(prose: str) -> None:
    """Only a run whose rest is exactly a mobile, after a name's CJK text, is cut: no other numeral is masked."""
    assert redact_text(prose) == prose


@pytest.mark.parametrize("spaced", [" ", ""])
@pytest.mark.parametrize("fill", range(50, 59))
def test_a_heading_cut_never_keeps_part_of_a_phone_in_chinese_digits(tmp_path: Path, fill: int, spaced: str) -> None:
    heading = "关于员工联系方式登记的补充说明" + "的" * fill + "联系人王五" + spaced + PHONE
    cut = heading[:80]
    assert "王五" in cut and not cut.endswith(("王五", "王五 ", PHONE))  # the cut falls inside the number
    assistant = fake_assistant(tmp_path / "store")
    report = assistant.ingest_bytes(f"# {heading}\n\n## 第一条 登记\n\n员工应及时登记联系方式。\n".encode(), "登记.md")
    assert report.ok, report.error
    shown = " ".join(c.section + c.title for c in assistant.document_chunks(report.doc_id))
    assert "王五" in shown and "一三八" not in shown and "三四五" not in shown
    assistant.memory.close()
    assistant.catalog.close()
    data_dir = Path(assistant.settings.data_dir)
    assert [p.name for p in data_dir.rglob("*") if p.is_file() and "一三八".encode() in p.read_bytes()] == []
