"""Review own1 D2: a passport or permit number after 编号 stayed raw (证件类型：护照，证件编号：E12345678), as 编号 was
read as another kind of number whatever came before it. A label's 编号 keeps a value only when no passport or permit
word stands near it; 护照编号 is a context word's value like 护照号."""

from __future__ import annotations

import pytest

from rag_core.text.pii import redact_text

MASKED = [
    ("证件类型：护照，证件编号：E12345678", "证件类型：护照，证件编号：[护照号]"),
    ("护照编号：E12345678", "护照编号：[护照号]"),
    ("出差人员护照编号E12345678", "出差人员护照编号[护照号]"),
    ("港澳通行证编号：C12345678", "港澳通行证编号：[通行证号]"),
    ("员工编号：E12345678（护照）", "员工编号：[护照号]（护照）"),
    ("台胞证编号：12345678", "台胞证编号：[通行证号]"),
]
KEPT = ["工号 E12345678", "表单编号 G20261231", "编号：C12345678", "员工编号：E12345678",
        "护照办理须知。\n表单编号 G20261231"]


@pytest.mark.parametrize(("text", "masked"), MASKED)
def test_a_passport_after_bianhao_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_text(masked) == masked


@pytest.mark.parametrize("text", KEPT)
def test_another_number_stays(text: str) -> None:
    assert redact_text(text) == text
