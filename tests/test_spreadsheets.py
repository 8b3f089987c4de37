"""Excel and CSV: sheets as sections, rows as records, cached formula values, hidden sheets
skipped and reported; real workbooks written by openpyxl, and the real search on one."""

from __future__ import annotations

import io
import re

import openpyxl
import pytest
from fixtures_files import patch_sheet

from rag_core.documents.chunking import chunk_document
from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError

LIMIT = 20 * 1024 * 1024
BANDS = [("P1", "助理工程师", 6000, 9000), ("P2", "工程师", 9000, 14000), ("P3", "高级工程师", 14000, 20000),
         ("P4", "资深工程师", 20000, 28000), ("P5", "专家", 28000, 40000)]


def with_cached_values(data: bytes, values: dict[str, str]) -> bytes:
    """openpyxl writes formulas without results; put in the value Excel would have cached on save."""

    def cache(text: str) -> str:
        for ref, value in values.items():
            text = re.sub(rf'(<c r="{ref}"[^>]*><f>[^<]*</f>)<v\s*/?>(?:</v>)?', rf"\g<1><v>{value}</v>", text)
        return text

    return patch_sheet(data, cache)


def salary_workbook() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "薪资等级"
    ws["A1"] = "2024 年技术序列薪资等级表"
    ws.merge_cells("A1:E1")
    ws.append(["职级", "岗位名称", "月薪下限（元）", "月薪上限（元）", "年薪上限（元）"])
    for row, (grade, title, low, high) in enumerate(BANDS, start=3):
        ws.append([grade, title, low, high, f"=D{row}*12"])
    ws.append([])
    ws.append(["说明：年终奖另行核定。"])
    secret = wb.create_sheet("测算底稿")
    secret.append(["姓名", "调薪后月薪"])
    secret.append(["王小明", 23456])
    secret.sheet_state = "hidden"
    allowance = wb.create_sheet("补贴")
    allowance.append(["项目", "标准（元/月）", "比例"])
    allowance.append(["通讯补贴", 200, 0.5])
    allowance["C2"].number_format = "0%"
    out = io.BytesIO()
    wb.save(out)
    cached = {f"E{r}": str(BANDS[r - 3][3] * 12) for r in range(3, 3 + len(BANDS) - 1)}  # the last one has none
    return with_cached_values(out.getvalue(), cached)


def test_xlsx_rows_become_records_with_cached_formula_values() -> None:
    doc = parse_bytes(salary_workbook(), "薪资等级.xlsx", max_bytes=LIMIT)
    text = doc.text
    assert "职级：P3，岗位名称：高级工程师，月薪下限（元）：14000，月薪上限（元）：20000，年薪上限（元）：240000" in text
    assert "职级：P5，岗位名称：专家，月薪下限（元）：28000，月薪上限（元）：40000" in text  # no cached value: left out
    assert "=D" not in text
    assert "项目：通讯补贴，标准（元/月）：200，比例：50%" in text
    table = next(s for s in doc.sections if s.table and "P3" in s.text)
    assert table.path.endswith("薪资等级") and table.text.startswith("2024 年技术序列薪资等级表")


def test_hidden_sheet_is_skipped_and_reported() -> None:
    doc = parse_bytes(salary_workbook(), "薪资等级.xlsx", max_bytes=LIMIT)
    assert "王小明" not in doc.text and "23456" not in doc.text
    assert doc.reading.hidden_sheets == ["测算底稿"] and doc.reading.sheets == ["薪资等级", "补贴"]
    assert any("已跳过隐藏工作表：测算底稿" in n for n in doc.reading.notes)
    assert any("1 个公式单元格没有保存计算结果" in n for n in doc.reading.notes)


def test_each_xlsx_chunk_holds_whole_rows_with_the_caption() -> None:
    doc = parse_bytes(salary_workbook(), "薪资等级.xlsx", max_bytes=LIMIT)
    chunks = [c for c in chunk_document(doc, 150, 40) if "职级：" in c.text]
    assert len(chunks) >= 2
    for c in chunks:
        assert "2024 年技术序列薪资等级表" in c.text.split("\n")[:2]  # after the sheet name in the first
        assert all(line.count("：") >= 4 for line in c.text.split("\n") if line.startswith("职级："))


def test_csv_in_gbk_with_semicolons() -> None:
    rows = ["工龄;年假天数;备注", "满1年不满10年;5;", "满10年不满20年;10;", "满20年;15;含法定年休假"]
    doc = parse_bytes("\r\n".join(rows).encode("gbk"), "年假.csv", max_bytes=LIMIT)
    assert doc.text.split("\n") == [
        "工龄：满1年不满10年，年假天数：5", "工龄：满10年不满20年，年假天数：10", "工龄：满20年，年假天数：15，备注：含法定年休假",
    ]
    assert doc.reading.tables == 1 and doc.reading.table_rows == 3


@pytest.mark.parametrize(
    ("data", "needle"),
    [(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "旧版 Excel（.xls）"), (b"PK\x03\x04broken", "Excel 工作簿")],
)
def test_old_or_broken_workbooks_are_refused_plainly(data: bytes, needle: str) -> None:
    with pytest.raises(IngestError) as info:
        parse_bytes(data, "工资.xlsx", max_bytes=LIMIT)
    assert needle in str(info.value)


@pytest.mark.integration
def test_search_finds_an_xlsx_row(store_copy) -> None:
    from conftest import open_assistant

    assistant = open_assistant(store_copy)
    report = assistant.ingest_bytes(salary_workbook(), "薪资等级.xlsx")
    assert report.ok, report.error
    assert report.reading is not None and report.reading.hidden_sheets == ["测算底稿"]
    assert any("测算底稿" in w for w in report.warnings)
    result = assistant.search("高级工程师的月薪上限是多少？")
    top = [h.chunk.text for h in result.hits[:3]]
    assert any("职级：P3，岗位名称：高级工程师，月薪下限（元）：14000，月薪上限（元）：20000" in t for t in top), top
    csv = "城市,夜班补贴（元/晚）\n北京,80\n兰州,60\n".encode()
    assert assistant.ingest_bytes(csv, "夜班补贴.csv").ok
    top = [h.chunk.text for h in assistant.search("兰州的夜班补贴每晚多少钱？").hits[:3]]
    assert any("城市：兰州，夜班补贴（元/晚）：60" in t for t in top), top
