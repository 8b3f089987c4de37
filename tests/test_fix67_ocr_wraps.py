"""Review 353: a number wrapped in a scanned table cell is joined whatever the cell's alignment, and a mobile number
wrapped in a narrow 手机 column is joined too, so the masker sees each whole. Pure box geometry, no OCR model."""

from __future__ import annotations

import pytest

from rag_core.documents.ocr_layout import Box, read_boxes
from rag_core.text.pii import redact_text

H = 20


def masked(boxes: list[Box]) -> str:
    lines, _ = read_boxes(boxes, 0.80)
    return redact_text("\n".join(lines))


@pytest.mark.parametrize("lower", [(102, 178), (140, 216)], ids=["centred", "right-aligned"])
def test_a_wrapped_id_in_a_centred_or_right_aligned_cell_is_masked(lower: tuple[float, float]) -> None:
    """The halves of a centred (or right-aligned) wrap start at different left edges; only left-aligned ones joined."""
    boxes = [Box(100, 100 + H, 10, 60, "张三"), Box(100, 100 + H, 80, 216, "110101199003"),
             Box(124, 124 + H, *lower, "071233"), Box(112, 112 + H, 240, 300, "财务部")]
    text = masked(boxes)
    assert "110101199003" not in text and "071233" not in text and "[身份证号]" in text


def test_a_mobile_number_wrapped_in_a_narrow_column_is_masked() -> None:
    """1381234 over 5678 in one cell: all eleven digits were stored, the masker saw two short runs."""
    boxes = [Box(100, 100 + H, 10, 60, "张三"), Box(100, 100 + H, 80, 150, "1381234"),
             Box(124, 124 + H, 80, 120, "5678"), Box(112, 112 + H, 170, 230, "财务部")]
    text = masked(boxes)
    assert "1381234" not in text and "5678" not in text and "[手机号]" in text


def test_stacked_amounts_that_are_no_mobile_stay_apart() -> None:
    """Control: two numbers of one column that make no mobile, ID or card keep a line each (passes before too)."""
    boxes = [Box(100, 100 + H, 80, 150, "2500"), Box(124, 124 + H, 90, 140, "1800")]
    assert read_boxes(boxes, 0.80)[0] == ["2500", "1800"]


def test_a_lower_box_wider_than_the_upper_is_not_its_wrap() -> None:
    """Control: centred alignment alone does not join a wider box below (another cell's content)."""
    boxes = [Box(100, 100 + H, 100, 160, "13812"), Box(124, 124 + H, 40, 220, "345678")]
    assert read_boxes(boxes, 0.80)[0] == ["13812", "345678"]
