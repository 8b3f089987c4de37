"""A streamed answer that is a numbered list of figures (1. 1 / 2. 1 …, as a small model writes) still streams line
by line: the hold-back for a number still being written ran across line breaks and held the whole answer back until
it ended (the real llama.cpp test saw one piece)."""

from __future__ import annotations

from rag_core.answer.cut_number import number_in_progress


def test_a_line_break_ends_the_number_held_back() -> None:
    assert number_in_progress("1. 1\n2. 1") == len("1. 1")  # "\n2. 1" is held: 2. 1 may go on (2. 15)
    assert number_in_progress("1. 1\n") == len("1. 1")
    assert number_in_progress("电话 138 0013 8000") == len("电话")  # a spaced number is still one run
