"""Review 51f 2: citations written as a range or a list are read whole; numbers the prompt never had are removed."""

from __future__ import annotations

import pytest

from rag_core.answer.citations import check_citations, cites_a_source, numbers_in, remove_unknown_citations
from rag_core.types import SourceRef

ONE = [SourceRef(1, "一线城市每晚上限 600 元。", "t.md", "", "t#0")]
THREE = [*ONE, SourceRef(2, "二线城市每晚上限 400 元。", "t.md", "", "t#1"), SourceRef(3, "三线 300 元。", "t.md", "", "t#2")]


@pytest.mark.parametrize(
    ("reply", "removed"),
    [
        ("每晚上限600元[资料1-3]。", [2, 3]),
        ("每晚上限600元[资料1～3]。", [2, 3]),
        ("每晚上限600元【资料1－资料3】。", [2, 3]),
        ("每晚上限600元[资料1、资料9]。", [9]),
        ("每晚上限600元［资料1，资料9］。", [9]),
        ("每晚上限600元[资料 1 , 资料 9]。", [9]),
    ],
)
def test_unknown_numbers_in_a_range_or_list_are_removed_and_not_read_as_amounts(reply, removed):
    answer, check = check_citations(reply, ONE)
    assert answer == "每晚上限600元[资料1]。"
    assert check.removed == removed and check.unsupported == []


def test_a_range_of_known_sources_is_kept_source_by_source():
    answer, removed = remove_unknown_citations("上限见[资料1-3]。", THREE)
    assert (answer, removed) == ("上限见[资料1][资料2][资料3]。", [])


def test_a_range_of_only_unknown_sources_is_removed_whole():
    answer, removed = remove_unknown_citations("上限600元[资料7-9]。", ONE)
    assert (answer, removed) == ("上限600元。", [7, 8, 9])


def test_a_huge_range_records_its_ends_only():
    _, removed = remove_unknown_citations("上限600元[资料1-999999]。", ONE)
    assert removed == [999999]


def test_range_and_list_citations_count_as_citations_and_hold_no_numbers():
    assert cites_a_source("见[资料1-3]") and cites_a_source("见[资料1、资料2]")
    assert numbers_in("见[资料1-3]和[资料2、资料9]") == []


def test_a_range_cites_each_source_for_the_number_check():
    assert check_citations("二线城市每晚上限400元[资料1-2]。", THREE)[1].unsupported == []
    assert check_citations("二线城市每晚上限400元[资料1]。", THREE)[1].unsupported == ["二线城市每晚上限400元[资料1]。"]
