"""Review 51h 3: an amount written with two scales (1万5千, 1万2, 一万五) is one quantity for the citation check."""

from __future__ import annotations

import pytest

from rag_core.answer.citations import check_citations
from rag_core.answer.stated_numbers import quantities_in
from rag_core.types import SourceRef

SOURCES = [SourceRef(1, "年终奖最高为15000元，报销上限1.2万元，补贴12500元。", "薪酬制度.md", "", "c1", "")]


@pytest.mark.parametrize("answer", ["年终奖最高1万5千元[资料1]。", "年终奖最高一万五千元[资料1]。",
                                    "年终奖最高一万五元[资料1]。", "报销上限1万2千元[资料1]。", "报销上限1万2元[资料1]。",
                                    "补贴1万2千5百元[资料1]。", "补贴1万2500元[资料1]。"])
def test_a_mixed_scale_amount_is_read_whole(answer):
    assert not check_citations(answer, SOURCES)[1].unsupported, answer


@pytest.mark.parametrize("text,value", [("1万5千元", 15000), ("1万2", 12000), ("一万五元", 15000), ("一万零五元", 10005),
                                        ("1亿5千万", 150_000_000), ("2万3000元", 23000)])
def test_two_scales_make_one_quantity(text, value):
    assert [q.value for q in quantities_in(text)] == [value]


@pytest.mark.parametrize("answer", ["年终奖最高1万6千元[资料1]。", "报销上限1万3千元[资料1]。"])
def test_a_wrong_mixed_scale_amount_is_still_flagged(answer):
    assert check_citations(answer, SOURCES)[1].unsupported, answer


def test_two_amounts_apart_stay_two():
    assert [q.value for q in quantities_in("1万元和5千元")] == [10000, 5000]
