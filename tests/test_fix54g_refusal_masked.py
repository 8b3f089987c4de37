"""A parse refusal quoting the file's own words is masked: an Excel sheet named 张三13812345678 (review 54g #2)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
from fakes import fake_assistant


def _merged_bomb(title: str) -> bytes:
    """A real workbook whose one sheet (named `title`) merges more cells than the reader accepts. openpyxl saves
    a small merge (a merge of 130,000 cells makes it build every cell: 1.8 s); its range is then widened in the
    sheet's XML, which is all the reader reads of it."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    ws["A1"] = "x"
    ws.merge_cells("A1:B2")
    buf = io.BytesIO()
    wb.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                data = data.replace(b'ref="A1:B2"', b'ref="A1:Z5000"')
            target.writestr(item, data)
    return out.getvalue()


def test_sheet_name_masked_in_upload_refusal_and_estimate(tmp_path: Path) -> None:
    facade = fake_assistant(tmp_path / "store")
    data = _merged_bomb("张三13812345678")
    report = facade.ingest_bytes(data, "工资.xlsx")
    estimate = facade.estimate_ingest(data, "工资.xlsx")
    for error in (report.error, estimate.error):
        assert error and "合并单元格" in error  # still the refusal, saying what to do
        assert "13812345678" not in error
        assert "张三" in error  # the rest of the sheet name is kept, so HR can find it
    assert report.status == "refused"


def test_refusal_without_personal_data_unchanged(tmp_path: Path) -> None:
    facade = fake_assistant(tmp_path / "store")
    report = facade.ingest_bytes(_merged_bomb("工资表"), "工资.xlsx")
    assert report.error and "工作表「工资表」" in report.error and "100,000" in report.error
