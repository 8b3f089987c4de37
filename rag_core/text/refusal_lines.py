"""The offline refusal's second line: the clause that came nearest, and what it does not state.

Owned here, below both the answerer that writes the line (`answer.extractive`) and the read-out that masks the
question's words it repeats (`text.shown`), so neither has to match the other's wording.
"""

from __future__ import annotations

import re

NEAREST = "找到的相近条款"
LACKS = "没有写明"


def other_case(where: str, words: list[str]) -> str:
    """The nearest clause governs another situation than the one the question names (出差 for 加班)."""
    return f"{NEAREST}（{where}）讲的是别的情形，{LACKS}「{'、'.join(words)}」的规定。"


def no_number(where: str) -> str:
    """The question asks a number (多少, 几天) the nearest clause does not state."""
    return f"{NEAREST}（{where}）{LACKS}具体的数字或标准。"


def no_value(where: str, value: str) -> str:
    """The question asks the value of something (`value`, the question's words) the nearest clause does not state."""
    return f"{NEAREST}（{where}）{LACKS}「{value}」是多少。"


# What follows LACKS on such a line repeats the person's words (or says 具体的数字或标准); the （…） before it is the
# document's heading, as stored.
PERSON_WORDS = re.compile(rf"^({NEAREST}（.*{LACKS})(.*)$", re.MULTILINE)
