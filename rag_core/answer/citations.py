"""Citations that hold: check an LLM answer against the clauses that were in its prompt.

Two checks, both on text alone (no model):

* a [资料N] whose N was not in the prompt points at nothing the reader can open;
  it is removed from the answer and its number recorded;
* a sentence that states a number, an amount or a date must find that number in
  one of the clauses it cites (or, when it cites none, in any clause of the
  prompt). A sentence that does not is recorded as unsupported, so the page can
  mark it 未在资料中找到 and `eval` can count it.

Numbers are compared by value: 500、五百、1,000、一千、3万、80% and 百分之八十 all match
their other spellings. Chinese numerals count only next to a unit (五天、三个月),
so words such as 一线城市 or 统一 are not read as the number one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.numerals import CN_NUMERAL, QUANTITY_UNITS, chinese_numeral
from ..types import CitationCheck, SourceRef

# [资料3], 【资料3】, ［资料3］ (full-width), [资料 3] and [资料3、4] are all citations a model writes.
_CITATION = re.compile(r"[\[【［]\s*资料\s*(\d+(?:\s*[、,，]\s*\d+)*)\s*[\]】］]")
_SENTENCE = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]*|\n")


def cites_a_source(text: str) -> bool:
    """The text cites at least one numbered source, in any of the forms a model writes."""
    return bool(_CITATION.search(text))


_LEADING_CITATIONS = re.compile(r"^\s*((?:[\[【［]\s*资料[^\]】］]*[\]】］]\s*)+)")

_ARABIC = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(万|千|百)?")
_PERCENT_CN = re.compile(rf"百分之([{CN_NUMERAL}]+)")
_CHINESE = re.compile(rf"([{CN_NUMERAL}]+)(?=[{QUANTITY_UNITS}])")
_SCALE = {"万": 10000, "千": 1000, "百": 100}


def _value(number: str) -> float:
    return float(number.replace(",", ""))


def numbers_in(text: str) -> list[tuple[str, set[float]]]:
    """Each number the text states: (as written, the values it may mean)."""
    text = _CITATION.sub(" ", text)
    found: list[tuple[str, set[float]]] = []
    for match in _ARABIC.finditer(text):
        base = _value(match.group(1))
        values = {base}
        if match.group(2):
            values.add(base * _SCALE[match.group(2)])
        found.append((match.group(0).strip(), values))
    taken: list[tuple[int, int]] = []
    for match in _PERCENT_CN.finditer(text):
        value = chinese_numeral(match.group(1))
        if value is not None:
            found.append((match.group(0), {float(value)}))
            taken.append(match.span())
    for match in _CHINESE.finditer(text):
        if any(start <= match.start() < end for start, end in taken):
            continue
        value = chinese_numeral(match.group(1))
        if value is not None:
            found.append((match.group(1), {float(value)}))
    return found


def _values(text: str) -> set[float]:
    return {v for _, values in numbers_in(text) for v in values}


def _cited(sentence: str) -> list[int]:
    numbers: list[int] = []
    for match in _CITATION.finditer(sentence):
        numbers.extend(int(n) for n in re.split(r"\s*[、,，]\s*", match.group(1)))
    return numbers


def _sentences(answer: str) -> list[str]:
    """Sentences with a citation that follows the full stop moved back onto its sentence."""
    pieces = [m.group(0) for m in _SENTENCE.finditer(answer)]
    merged: list[str] = []
    for piece in pieces:
        lead = _LEADING_CITATIONS.match(piece)
        if lead and merged and merged[-1] != "\n":
            merged[-1] += lead.group(1)
            piece = piece[lead.end() :]
        if piece.strip() or piece == "\n":
            merged.append(piece)
    return [s for s in merged if s != "\n"]


def remove_unknown_citations(answer: str, sources: Sequence[SourceRef]) -> tuple[str, list[int]]:
    """The answer without citations of numbers the prompt did not have, and those numbers."""
    known = {s.number for s in sources}
    removed: list[int] = []

    def keep_known(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.split(r"\s*[、,，]\s*", match.group(1))]
        good = [n for n in numbers if n in known]
        removed.extend(n for n in numbers if n not in known)
        return "".join(f"[资料{n}]" for n in good)

    cleaned = _CITATION.sub(keep_known, answer)
    cleaned = re.sub(r"[ \t]+([。！？!?，,；;])", r"\1", cleaned)  # "500 元 。" left by a removal
    return cleaned, sorted(set(removed))


def unsupported_sentences(answer: str, sources: Sequence[SourceRef]) -> list[str]:
    """Sentences stating a number that none of their cited clauses (or any clause, if uncited) states."""
    by_number = {s.number: s for s in sources}
    every = [s for s in sources]
    unsupported: list[str] = []
    for sentence in _sentences(answer):
        stated = numbers_in(sentence)
        if not stated:
            continue
        cited = [by_number[n] for n in _cited(sentence) if n in by_number] or every
        clause_values = set().union(*(_values(f"{s.source} {s.section} {s.text}") for s in cited)) if cited else set()
        if any(not (values & clause_values) for _, values in stated):
            unsupported.append(sentence.strip())
    return unsupported


def check_citations(answer: str, sources: Sequence[SourceRef]) -> tuple[str, CitationCheck]:
    """(the answer with unknown citations removed, what was removed and which sentences lack support)."""
    cleaned, removed = remove_unknown_citations(answer, sources)
    return cleaned, CitationCheck(checked=True, removed=removed, unsupported=unsupported_sentences(cleaned, sources))
