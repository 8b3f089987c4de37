"""What HR types into a standard answer, checked before it is masked and embedded (split from `standard`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RagError
from ..text.inputs import MAX_QUESTION_CHARS, checked, is_blank

MAX_CHARS = 4000  # the answer
MAX_CLAUSE_CHARS = 1000
MAX_LINES = 20  # clauses, and variants: each variant is embedded (300 took 80 s with the real model)


class StandardAnswerError(RagError):
    """A standard answer was refused (empty, too long, unknown id); nothing was stored."""


def _lines(texts: Sequence[str], what: str, max_chars: int) -> list[str]:
    """The non-blank lines of a list field (the page splits a text area by line), each checked; at most MAX_LINES.
    One text is its lines, never its characters (a clause given as a string was stored as one clause per character)."""
    if isinstance(texts, str):
        texts = texts.splitlines()
    kept = [checked(t, what=what, max_chars=max_chars) for t in texts if not (isinstance(t, str) and is_blank(t))]
    if len(kept) > MAX_LINES:
        raise StandardAnswerError(f"{what}最多 {MAX_LINES} 条，现在有 {len(kept)} 条，请删去一些后再添加")
    return kept


def standard_fields(question: object, answer: object, clauses: Sequence[str] = (),
                    variants: Sequence[str] = ()) -> tuple[str, str, list[str], list[str]]:
    """The fields HR typed, checked like every typed text (`checked`: no invisible or garbled text) and bounded,
    before they are masked and embedded; a Chinese `RagError` saying which one and why otherwise."""
    question = checked(question, what="问题", max_chars=MAX_QUESTION_CHARS)
    answer = checked(answer, what="标准答复", max_chars=MAX_CHARS)
    for text, what in ((question, "问题"), (answer, "标准答复")):
        if not any(ch.isalnum() for ch in text):  # ？？？ matched nothing anyone asks, and said nothing (review 201)
            raise StandardAnswerError(f"{what}里没有文字或数字，请写清楚")
    return (question, answer, _lines(clauses, "依据的条款", MAX_CLAUSE_CHARS),
            _lines(variants, "其他问法", MAX_QUESTION_CHARS))
