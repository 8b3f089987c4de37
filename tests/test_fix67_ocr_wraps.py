"""Review 353: an ID or card number wrapped in a scanned table cell is joined whatever the cell's alignment, so the
masker sees it whole; two stacked amounts are not joined into a mobile number's shape. Pure box geometry, no OCR."""

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


def test_stacked_amounts_shaped_like_a_mobile_stay_apart() -> None:
    """150000 over 30000 in a salary column reads as 15000030000, a mobile number's shape: a wrapped mobile has no
    check digit to tell it from two amounts, so none is joined (review 354 against review 353's first fix)."""
    boxes = [Box(100, 100 + H, 80, 150, "150000"), Box(124, 124 + H, 85, 145, "30000")]
    assert read_boxes(boxes, 0.80)[0] == ["150000", "30000"]


def test_stacked_amounts_that_are_no_mobile_stay_apart() -> None:
    """Control: two numbers of one column that make no mobile, ID or card keep a line each (passes before too)."""
    boxes = [Box(100, 100 + H, 80, 150, "2500"), Box(124, 124 + H, 90, 140, "1800")]
    assert read_boxes(boxes, 0.80)[0] == ["2500", "1800"]


def test_a_lower_box_wider_than_the_upper_is_not_its_wrap() -> None:
    """Control: centred alignment alone does not join a wider box below (another cell's content)."""
    boxes = [Box(100, 100 + H, 100, 160, "13812"), Box(124, 124 + H, 40, 220, "345678")]
    assert read_boxes(boxes, 0.80)[0] == ["13812", "345678"]
