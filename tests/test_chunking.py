"""Chunk invariants: sentence starts, exact rejoin, bounded size, article starts."""

from __future__ import annotations

import re

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_core.documents.chunking import chunk_sections, chunk_units, rejoin, split_units
from rag_core.types import Section

POLICY = (
    "第一条 住宿标准。国内出差住宿凭发票实报实销，一线城市每晚上限 600 元，二线城市每晚上限 400 元，"
    "其他城市每晚上限 300 元。超出上限的部分需要部门总监特批，否则不予报销。\n\n"
    "出差期间餐费按每天 100 元定额补贴，无需提供发票；出发当天和返程当天各按半天计算。"
    "宴请客户的费用不走餐费补贴，须单独走业务招待费流程。\n"
    "网约车须上传平台电子行程单！现金支付的出租车须保留纸质发票？"
)
SENTENCE_END = re.compile(r"[。！？；!?;]\s*$|\n\s*$")


def _unit_starts(text: str) -> set[int]:
    starts, pos = set(), 0
    for u in split_units(text):
        starts.add(pos)
        pos += len(u)
    return starts


def test_units_rejoin_exactly():
    assert "".join(split_units(POLICY)) == POLICY


def test_every_chunk_starts_at_a_sentence_start_and_rejoins():
    for size, overlap in [(60, 0), (60, 30), (120, 40), (200, 80), (1000, 100)]:
        chunks = chunk_units(split_units(POLICY), size, overlap)
        starts = _unit_starts(POLICY)
        pos = 0
        for text, lap in chunks:
            # the chunk begins `lap` characters before where the new text starts
            begin = pos - lap
            assert begin in starts, (size, overlap, text)
            assert POLICY[begin : begin + len(text)] == text
            pos = begin + len(text)
        assert "".join(t[lap:] for t, lap in chunks) == POLICY


def test_overlap_is_whole_sentences_and_bounded():
    chunks = chunk_units(split_units(POLICY), 80, 50)
    assert any(lap > 0 for _, lap in chunks), "this input should produce some overlap"
    for text, lap in chunks:
        assert lap <= 50
        if lap:
            carried = text[:lap]
            assert SENTENCE_END.search(carried), carried


def test_naive_character_overlap_would_break_sentences():
    """The failure we avoid: a fixed 20-character tail starts mid-sentence."""
    naive_start = POLICY[100 - 20 : 100]
    assert 80 not in _unit_starts(POLICY), naive_start


def test_chunk_size_is_bounded_even_without_punctuation():
    text = "无标点长段落" * 2000  # 12k characters, no sentence end at all
    chunks = chunk_units(split_units(text), 200, 40)
    assert max(len(t) for t, _ in chunks) <= 200
    assert "".join(t[lap:] for t, lap in chunks) == text


def test_sections_start_new_chunks_and_heading_only_sections_glue_forward():
    sections = [
        Section("## 第一章 总则", "第一章 总则"),
        Section("第一条 目的。为规范差旅报销，制定本制度。", "第一章 总则 > 第一条"),
        Section("第二条 范围。本制度适用于全体员工。", "第一章 总则 > 第二条"),
    ]
    chunks = chunk_sections(sections, 200, 40)
    assert [c.section for c in chunks] == ["第一章 总则 > 第一条", "第一章 总则 > 第二条"]
    assert chunks[0].text.startswith("## 第一章 总则\n第一条")
    assert chunks[1].text.startswith("第二条")
    assert all(c.overlap_chars == 0 for c in chunks)


def test_rejoin_inverts_chunking_within_a_section():
    chunks = chunk_sections([Section(POLICY, "第一条")], 90, 45)
    assert len(chunks) > 2
    assert rejoin(chunks) == POLICY


_alphabet = st.sampled_from(list("制度员工年假加班出差报销发票住宿元天ABC123") + list("。！？；，") + ["\n", "\n\n", " "])


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_alphabet, min_size=1, max_size=600).map("".join), st.integers(40, 300), st.integers(0, 120))
def test_property_rejoin_and_bounds(text, size, overlap):
    overlap = min(overlap, size - 1)
    chunks = chunk_units(split_units(text), size, overlap)
    assert "".join(t[lap:] for t, lap in chunks) == text
    starts = _unit_starts(text)
    pos = 0
    for t, lap in chunks:
        assert len(t) <= size
        begin = pos - lap
        assert t == text[begin : begin + len(t)]
        # a chunk starts at a unit start unless the unit itself was longer than the size
        if all(len(u) <= size for u in split_units(text)):
            assert begin in starts
        pos = begin + len(t)
