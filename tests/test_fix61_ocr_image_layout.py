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


# Review rev-own3 (cases A-F): a table's rows, two columns of a page and a row with an unreadable cell.
from rag_core.documents.ocr_layout import Box, read_boxes  # noqa: E402

H = 20
PEOPLE = [("张三", "110101199003071233"), ("李四", "110101199105082347"), ("王五", "110101198812123457")]


def cells(top: float, row: list[tuple[float, float, str]], score: float = 0.99) -> list[Box]:
    return [Box(top, top + H, left, right, text, score) for left, right, text in row]


def masked(boxes: list[Box]) -> str:
    lines, _ = read_boxes(boxes, 0.80)
    return redact_text("\n".join(lines))


@pytest.mark.parametrize("count", [2, 3])
def test_a_merged_cell_over_rows_does_not_join_the_rows(count: int) -> None:
    """A 部门 cell merged over the rows and centred: each row keeps its own ID, and each ID is masked."""
    boxes = [b for i, (name, idn) in enumerate(PEOPLE[:count]) for b in cells(100 + 32 * i, [(10, 60, name), (80, 300, idn)])]
    boxes.append(Box(116 if count == 2 else 132, (116 if count == 2 else 132) + H, 320, 380, "研发部"))
    lines, _ = read_boxes(boxes, 0.80)
    for name, idn in PEOPLE[:count]:  # each row on a line of its own (研发部 may have one too, as before)
        assert [line for line in lines if name in line] == [line for line in lines if idn in line]
        assert sum(other in line for line in lines if name in line for other, _ in PEOPLE) == 1
    text = redact_text("\n".join(lines))
    assert all(idn not in text for _, idn in PEOPLE) and text.count("[身份证号]") == count


def test_a_wrapped_id_in_a_top_aligned_row_is_masked() -> None:  # Word's default
    boxes = cells(100, [(10, 60, "张三"), (80, 200, "110101199003"), (220, 280, "研发部")])
    boxes.append(Box(124, 144, 80, 150, "071233"))
    text = masked(boxes)
    assert "110101199003" not in text and "071233" not in text and "[身份证号]" in text


def test_a_wrapped_id_in_a_bottom_aligned_row_is_masked() -> None:  # Excel's default
    boxes = cells(124, [(10, 60, "张三"), (220, 280, "研发部")])
    boxes += [Box(100, 120, 80, 200, "110101199003"), Box(124, 144, 80, 150, "071233")]
    text = masked(boxes)
    assert "110101199003" not in text and "071233" not in text and "[身份证号]" in text


def test_a_wrapped_id_in_a_centred_row_is_one_run() -> None:
    boxes = cells(112, [(10, 60, "张三"), (220, 280, "研发部")])
    boxes += [Box(100, 120, 80, 200, "110101199003"), Box(124, 144, 80, 150, "071233")]
    assert read_boxes(boxes, 0.80)[0] == ["张三 110101199003071233 研发部"]


def test_two_columns_out_of_step_keep_their_lines() -> None:
    left = ["1. 病假须提供医院证明", "2. 事假须提前三天申请", "3. 婚假为十天"]
    right = ["第五条 年假按工龄计算", "工龄满一年不满十年的", "年休假五天"]
    boxes = [Box(100 + 28 * i, 120 + 28 * i, 10, 300, t) for i, t in enumerate(left)]
    boxes += [Box(114 + 28 * i, 134 + 28 * i, 400, 700, t) for i, t in enumerate(right)]
    lines, _ = read_boxes(boxes, 0.80)
    assert sorted(lines) == sorted(left + right)
    assert [line for line in lines if line in left] == left and [line for line in lines if line in right] == right


def test_an_unreadable_cell_keeps_its_place_in_the_row() -> None:
    boxes = cells(100, [(10, 80, "工龄"), (100, 200, "1-10年"), (220, 320, "10-20年"), (340, 440, "20年以上")])
    boxes += cells(130, [(10, 80, "年假"), (100, 200, "5天")]) + cells(130, [(220, 320, "10天")], 0.75)
    boxes += cells(130, [(340, 440, "15天")])
    lines, dropped = read_boxes(boxes, 0.80)
    assert lines == ["工龄 1-10年 10-20年 20年以上", "年假 5天 〔无法识别〕 15天"]
    assert [d.text for d in dropped] == ["10天"]


def test_two_stacked_numbers_that_are_no_id_stay_apart() -> None:
    boxes = cells(100, [(10, 60, "编号"), (80, 200, "202401")]) + cells(124, [(80, 200, "202402")])
    assert read_boxes(boxes, 0.80)[0] == ["编号 202401", "202402"]


@pytest.mark.parametrize("lower", ["2. 事假须提前三天申请", "（二）事假", "第六条 事假"])
def test_a_list_item_or_article_is_never_a_wrapped_cell(lower: str) -> None:
    boxes = [Box(100, 120, 10, 300, "1. 病假须提供医院证明"), Box(128, 148, 10, 300, lower), Box(114, 134, 400, 460, "备注")]
    assert sum(lower in line for line in read_boxes(boxes, 0.80)[0]) == 1
    assert not any("医院证明" in line and lower in line for line in read_boxes(boxes, 0.80)[0])


def test_two_whole_phone_numbers_in_one_column_are_not_joined() -> None:
    boxes = [Box(100, 120, 80, 200, "13812345678"), Box(128, 148, 80, 200, "13998765432"), Box(114, 134, 10, 60, "张三")]
    text = masked(boxes)
    assert "13812345678" not in text and "13998765432" not in text and text.count("[手机号]") == 2


# Review rev-own4: the geometric join (a narrow box centred beside two stacked ones) glued ordinary rows. Only a
# number's own checksum joins two stacked boxes now; everything else keeps plain line order.
@pytest.mark.parametrize("found, glued", [
    # 住宿标准（元/晚） merged over two rows, 500 and 350 one per row: no false amount 500350
    ([((60, 98, 260, 128), "住宿标准（元/晚）"), ((300, 80, 500, 110), "500"), ((300, 118, 500, 148), "350")], "500350"),
    ([((60, 98, 200, 128), "扣款规则"), ((300, 80, 800, 110), "迟到一次扣50元"),
      ((300, 118, 800, 148), "旷工一天扣日工资三倍")], "50元旷工"),
    ([((60, 154, 500, 184), "①事假按日扣发工资。"), ((60, 192, 500, 222), "②病假按60%发放。"),
      ((800, 170, 900, 200), "已审核")], "。②"),
    ([((60, 40, 300, 70), "姓名：张三"), ((60, 80, 300, 110), "部门：研发部"), ((800, 60, 900, 90), "照片")], "张三部门"),
    ([((60, 40, 300, 70), "应发合计"), ((60, 80, 300, 110), "扣款合计"), ((800, 60, 900, 90), "9500.00")], "应发合计扣款合计"),
], ids=["merged-amounts", "merged-rules", "list-beside-stamp", "fields-beside-photo", "totals-beside-amount"])
def test_rows_beside_a_centred_box_are_not_glued(monkeypatch, found, glued: str) -> None:
    lines = read(monkeypatch, [(b, t, 0.99) for b, t in found]).lines
    assert not any(glued in line for line in lines), lines
    stacked = [t for b, t in found if b[0] == found[1][0][0]]  # the two boxes of one column keep a line each
    assert all(sum(t in line for line in lines) == 1 for t in stacked)
    assert not any(stacked[0] in line and stacked[1] in line for line in lines), lines


def test_a_wrapped_text_cell_keeps_plain_line_order() -> None:
    """A 说明 cell wrapped over two lines beside a centred row is not joined (no number vouches for it)."""
    boxes = cells(112, [(10, 60, "病假"), (320, 380, "3天")])
    boxes += [Box(100, 120, 80, 300, "需提供二级以上医院"), Box(124, 144, 80, 200, "出具的证明")]
    assert read_boxes(boxes, 0.80)[0] == ["需提供二级以上医院", "病假 3天", "出具的证明"]


def test_a_wrapped_bank_card_is_one_run_and_masked() -> None:
    boxes = cells(112, [(10, 60, "张三"), (320, 380, "工行")])
    boxes += [Box(100, 120, 80, 300, "6222021234567"), Box(124, 144, 80, 200, "890128")]
    lines, _ = read_boxes(boxes, 0.80)
    assert lines == ["张三 6222021234567890128 工行"]
    text = redact_text("\n".join(lines))
    assert "6222021234567" not in text and "890128" not in text and "[银行卡号]" in text


def test_two_stacked_numbers_without_a_valid_checksum_stay_apart() -> None:
    boxes = cells(112, [(10, 60, "张三"), (320, 380, "工行")])
    boxes += [Box(100, 120, 80, 300, "6222021234567"), Box(124, 144, 80, 200, "890127")]  # Luhn digit wrong
    assert read_boxes(boxes, 0.80)[0] == ["6222021234567", "张三 工行", "890127"]
