"""设为标准答复 from a gap keeps as variants only the wordings that ask what the representative asks, and a new
answer may not take over a served answer's question through its variants (review 61)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.errors import RagError
from rag_core.insights.records import GapGroup
from rag_core.types import Principal

HR, EMPLOYEE = Principal("wang", "admin"), Principal("zhang", "employee")


def test_gap_keeps_only_the_wordings_that_ask_the_same(tmp_path):
    a = fake_assistant(tmp_path / "store")
    group = GapGroup(representative="公司有没有班车？", count=4, first_seen="", last_seen="",
                     questions=["公司有没有班车？", "公司有班车吗", "上下班有没有通勤班车可以坐？", "班车几点发车？",
                                "班车在哪里上车？", "春节有班车吗？", "公司没有班车吗？"], kinds={})
    kept, left = a.standard_gap_variants(group)
    assert kept == ["公司有没有班车？", "公司有班车吗", "上下班有没有通勤班车可以坐？"]
    assert left == ["班车几点发车？", "班车在哪里上车？", "春节有班车吗？", "公司没有班车吗？"]
    entry = a.standard_answer_from_gap(group, "有，早八点发车。", actor=HR)
    assert not set(left) & set(entry.variants)
    assert {"公司有班车吗", "上下班有没有通勤班车可以坐？"} <= set(entry.variants)


def test_a_variant_may_not_take_over_a_served_question(tmp_path):
    a = fake_assistant(tmp_path / "store")
    old = a.add_standard_answer("公司有班车吗？", "有，公司提供免费班车。", actor=HR)
    with pytest.raises(RagError, match=old.id):
        a.add_standard_answer("班车几点发车？", "早上8点发车。", variants=["公司有班车吗"], actor=HR)
    assert [e.id for e in a.standard_answers(actor=HR)] == [old.id]
    # for other readers it is no duplicate
    a.add_standard_answer("班车几点发车？", "早上8点发车。", variants=["公司有班车吗？"], audience=["hr"], actor=HR)
