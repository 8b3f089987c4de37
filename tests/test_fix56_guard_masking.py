"""Review 56 (fix-guard #5): personal data typed into a memory is stored masked however it is spaced.

`138  0013  8000` was masked only after the spaces were collapsed, so memory.sqlite3 held `138 0013 8000`;
`1 3 8 0 0 1 3 8 0 0 0` and `138、0013、8000` were never masked. A memory is now masked after it is normalised too,
and digits set apart by one space, 、 or ，are read as one number when they spell a mobile or an ID
(`text.separated_digits`), never a list of small numbers or amounts.
"""

from __future__ import annotations

import re
import sqlite3

import pytest
from fakes import fake_assistant

from rag_core.memory.content import checked_content
from rag_core.text.pii import redact_text

TYPED = ["我的手机号是 138  0013  8000", "我的身份证 110101  19900307  7715", "我的手机号是1 3 8 0 0 1 3 8 0 0 0",
         "我的手机号 138、0013、8000", "手机 138，0013，8000", "身份证号 1 1 0 1 0 1 1 9 9 0 0 3 0 7 7 7 1 5",
         "身份 110101、19900307、7715"]
KEPT = ["第1、2、3条", "见第 1 3 5 条", "100、200元", "1000，2000，3000", "1、3、5、7、9、11、13、15", "138、0013、8000元",
        "2023、2024、2025 年", "评分\t1\t3\t8\t0\t0\t1\t3\t8\t0\t0\t0", "工号 13 2 1500 3000", "分值 1 3 8 0 0 1 3 8 0 0 0 1"]


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


@pytest.mark.parametrize("typed", TYPED)
def test_a_spaced_or_listed_number_is_masked_in_a_memory(typed):
    stored = checked_content(typed)
    assert _digits(stored) == "" and ("[手机号]" in stored or "[身份证号]" in stored), stored


@pytest.mark.parametrize("text", KEPT)
def test_lists_of_small_numbers_and_amounts_stay(text):
    assert redact_text(text) == text


def test_nothing_unmasked_reaches_the_memory_file(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    ids = [assistant.remember("u1", typed)[0] for typed in TYPED[:4]]
    edited, _ = assistant.remember("u1", "用户常驻杭州")
    assistant.update_memory_text(edited, "我的手机号是 138  0013  8000")
    with sqlite3.connect(tmp_path / "store" / "memory.sqlite3") as db:
        rows = [r[0] for r in db.execute("SELECT content FROM memories")]
        rows += [r[0] for r in db.execute("SELECT content FROM memory_history")]
    assert len(ids) == 4 and rows
    assert not [r for r in rows if re.search(r"\d", r)], rows


@pytest.mark.parametrize("text", [
    "住宿标准（一、二、三类城市）：180、1200、1500（单位：元）", "各档补贴：150，3000，5000",
    "满意度评分（11题）：1 4 5 3 2 4 5 5 3 4 2", "各月加班人数：1 5 3 2 0 4 1 2 3 3 1",
])
def test_a_row_of_amounts_or_scores_shaped_like_a_mobile_is_not_masked(text):
    """Review 198: without a phone word before it, a separated run is a row of values, not a number to call."""
    assert redact_text(text) == text
