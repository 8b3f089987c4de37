"""Review 365 (text that takes too long): each input grows four-fold and the time may grow about as much, not 16×, 64×
or exponentially. Ratios in one run, the fastest of a few rounds of each size (no timed assertion):

- #1 a context word (电话, 卡号 …) followed by blanks and no value: masking ~n⁴ (`pii_context._GAP`);
- #2 【依据 + blanks and no closing bracket: cubic (`markers._CITATION`), on every uploaded section;
- #3 blanks after a line holding | in a .md file: quadratic (`formats._PIPE_RULE`);
- #4 mobiles written in two groups, a row of them: one per pass over the whole text (`pii`'s pair rule);
- #5 blank lines holding a full-width space: quadratic (`chunking.split_units`);
- #6 a bank word and 63+ digits: exponential (`pii_context._ACCOUNT`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from rag_core.documents.chunking import split_units
from rag_core.documents.formats import markdown_lines
from rag_core.text.markers import neutralise_markers
from rag_core.text.pii import redact, redact_text


def _fastest(work: Callable[[], object], rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _growth(make: Callable[[int], str], run: Callable[[str], object], small: int, factor: int = 4) -> float:
    short, long = make(small), make(small * factor)
    run(short)  # warm
    return _fastest(lambda: run(long)) / max(_fastest(lambda: run(short)), 1e-6)


@pytest.mark.parametrize("label", ["我的联系电话", "卡号", "身份证", "QQ"])
def test_a_label_followed_by_blanks_masks_in_linear_time(label: str) -> None:
    growth = _growth(lambda n: f"{label}{' ' * n}怎么改？" * 5, redact_text, 25)
    assert growth < 16, growth


def test_an_unclosed_citation_bracket_with_blanks_is_read_in_linear_time() -> None:
    growth = _growth(lambda n: "第一条 年休假按国家规定执行【依据" + " " * n + "《职工带薪年休假条例》。", neutralise_markers, 100)
    assert growth < 16, growth
    assert neutralise_markers("年假五天[资料 2]") == "年假五天（资料 2）"  # a real marker still is


def test_blanks_after_a_pipe_line_are_read_in_linear_time() -> None:
    growth = _growth(lambda n: "# 考勤制度\n\n适用范围 | 全体员工\n" + " " * n + "第一条 员工应按时上班。\n", markdown_lines, 2000)
    assert growth < 10, growth


def test_a_row_of_two_group_mobiles_is_masked_in_one_pass() -> None:
    growth = _growth(lambda k: "员工手机号：" + "13800 138000 " * k, redact_text, 100)
    assert growth < 10, growth
    result = redact("员工手机号：" + "13800 138000 " * 50)
    assert result.counts["mobile"] == 50 and "13800" not in result.text


def test_blank_lines_with_a_full_width_space_are_cut_in_linear_time() -> None:
    growth = _growth(lambda n: "第一条 年假规定如下。\n" + "\u3000\u3000\n" * n + "第二条 本制度自发布之日起施行。\n",
                     split_units, 1000)
    assert growth < 10, growth


def test_a_bank_word_before_a_long_digit_run_is_read_once() -> None:
    short, long = ("卡号" + "1" * 62 + " ") * 3, ("卡号" + "1" * 64 + " ") * 3
    redact_text(short)
    ratio = _fastest(lambda: redact_text(long), 5) / max(_fastest(lambda: redact_text(short), 5), 1e-6)
    assert ratio < 20, ratio  # two more digits: about the same time (they cost ~10⁴× before)
    assert redact_text("卡号 6222 0212 3456 7890 128") == "卡号 [银行卡号]"


@pytest.mark.parametrize(("label", "blank"), [("电话", " "), ("身份证号", "\u3000")])
def test_a_label_before_many_blanks_masks_in_linear_time(label: str, blank: str) -> None:
    """Review 369 #3: the label-above-value rule kept non-possessive blank runs (电话 + 5,000 spaces: 30 s)."""
    growth = _growth(lambda n: label + blank * n, redact_text, 400)
    assert growth < 16, growth
