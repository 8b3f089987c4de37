"""OCR boxes into text, on synthetic boxes from a stand-in recogniser (no model): a line read below the
confidence bar is left out and named in the page's report; a table cell that wraps onto a second line
(a narrow 身份证号 column) is one run, so the masker sees the whole number; paragraphs keep their lines."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from rag_core.documents import ocr
from rag_core.text.pii import redact_text


def box(left: float, top: float, right: float, bottom: float) -> np.ndarray:
    return np.array([[left, top], [right, top], [right, bottom], [left, bottom]], dtype=float)


def read(monkeypatch, found: list[tuple[tuple[float, float, float, float], str, float]]) -> ocr.OcrText:
    result = SimpleNamespace(boxes=np.array([box(*b) for b, _, _ in found]), txts=tuple(t for _, t, _ in found),
                             scores=tuple(s for _, _, s in found))
    monkeypatch.setattr(ocr, "engine", lambda: lambda pixels: result)
    return ocr.recognize(Image.new("L", (40, 40), 255))


ARTICLES = ["第五条 报销须在返回后十个工作日内提交。", "第六条 未经批准的费用一律不予报销。", "第七条 住宿费每晚标准为480元。",
            "第八条 本办法由人力资源部负责解释。"]


def test_a_line_read_below_the_bar_is_left_out_and_named(monkeypatch) -> None:
    scores = [0.99, 0.99, 0.469, 0.99]
    texts = [*ARTICLES[:2], "山邮カ口±。", ARTICLES[3]]
    found = read(monkeypatch, [((60, 60 + 80 * i, 900, 100 + 80 * i), t, s) for i, (t, s) in enumerate(zip(texts, scores))])
    assert found.usable and found.confidence >= ocr.OCR_MIN_CONFIDENCE  # the page mean alone would index it all
    assert "山邮カ口±。" not in "\n".join(found.lines)
    assert found.lines == [ARTICLES[0], ARTICLES[1], ARTICLES[3]]
    note = found.dropped_note(1)
    assert note is not None and note.startswith("第 1 页有 1 行识别不可靠，未编入索引，请核对原件")
    assert "「山邮カ口±。」" in note and "0.47" in note and f"在「{ARTICLES[1]}」之后" in note


def test_a_page_without_low_lines_has_no_note(monkeypatch) -> None:
    found = read(monkeypatch, [((60, 60 + 80 * i, 900, 100 + 80 * i), t, 0.99) for i, t in enumerate(ARTICLES)])
    assert found.lines == ARTICLES and found.dropped == [] and found.dropped_note(1) is None


def test_the_note_masks_personal_data_in_an_unreadable_line(monkeypatch) -> None:
    found = read(monkeypatch, [((60, 60, 900, 100), "张三 手机13812345678 身份证", 0.7),
                               *[((60, 140 + 80 * i, 900, 180 + 80 * i), t, 0.99) for i, t in enumerate(ARTICLES)]])
    note = found.dropped_note(2) or ""
    assert "13812345678" not in note and "在页首" in note and note.startswith("第 2 页有 1 行")


def roster() -> list[tuple[tuple[float, float, float, float], str, float]]:
    """Two rows of a roster; the ID column is narrow, so each ID wraps onto a second line of its cell."""
    out = [((55, 40, 400, 80), "员工花名册（第2页）", 0.99)]
    heads = [(55, "姓名"), (255, "身份证号"), (575, "手机"), (915, "部门")]
    out += [((x, 118, x + 140, 158), t, 0.99) for x, t in heads]
    rows = [("张三", "110101199003", "071233", "13812345678", "财务部"), ("李四", "320102198507", "153217", "13998765432", "人事部")]
    for r, (name, id1, id2, phone, dept) in enumerate(rows):
        y = 185 + 130 * r
        out += [((55, y + 30, 130, y + 70), name, 0.99), ((255, y, 520, y + 40), id1, 0.99),
                ((255, y + 55, 400, y + 95), id2, 0.99), ((575, y + 30, 830, y + 70), phone, 0.99),
                ((915, y + 30, 1030, y + 70), dept, 0.99)]
    return out


def test_a_wrapped_id_cell_is_one_run_in_its_row(monkeypatch) -> None:
    found = read(monkeypatch, roster())
    assert found.lines[2] == "张三 110101199003071233 13812345678 财务部"
    text = redact_text("\n".join(found.lines))
    assert "110101199003" not in text and "071233" not in text and "153217" not in text


def test_paragraph_lines_keep_their_order(monkeypatch) -> None:
    """Stacked lines at one left margin, and a line split into two boxes, are not joined as cells."""
    found = read(monkeypatch, [((60, 60, 300, 100), "第一条", 0.99), ((320, 60, 1100, 100), "每年6月至9月在室外作业的员工", 0.99),
                               ((60, 110, 900, 150), "每人每月发放高温津贴300元。", 0.99),
                               ((60, 160, 900, 200), "第二条 室内作业员工每月发放150元。", 0.99)])
    assert found.lines == ["第一条 每年6月至9月在室外作业的员工", "每人每月发放高温津贴300元。", "第二条 室内作业员工每月发放150元。"]


@pytest.mark.parametrize("shift", [0, 25])
def test_a_side_note_beside_a_paragraph_does_not_swallow_an_article(monkeypatch, shift: int) -> None:
    found = read(monkeypatch, [((60, 60, 900, 100), "每人每月发放高温津贴300元。", 0.99),
                               ((60, 110, 900, 150), "第二条 室内作业员工每月发放150元。", 0.99),
                               ((1000, 80 + shift - 25, 1200, 120 + shift - 25), "（修订）", 0.99)])
    assert any(line.startswith("第二条 室内作业") for line in found.lines)
