"""Citations that hold: check an LLM answer against the clauses that were in its prompt.

Two checks, both on text alone (no model):

* a [资料N] whose N was not in the prompt points at nothing the reader can open;
  it is removed from the answer and its number recorded;
* a sentence that states a number, an amount or a date must find that number in
  one of the clauses it cites (or, when it cites none, in any clause of the
  prompt). A sentence that does not is recorded as unsupported, so the page can
  mark it 未在资料中找到 and `eval` can count it.

Numbers are compared by value after scale and by the kind of their unit (`stated_numbers`):
500、五百、1,000、一千、3万、30000元、80% and 百分之八十 all match their other spellings,
but 2万 is never 2, 第五条 is no five of anything, and 5天 is not supported by 5元.
Citations are read in every form a model writes ([资料1-3], [资料1、资料9]) before any
number is, so a citation's numbers are never taken for amounts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..text.markers import _CLOSE, _LABEL, _OPEN
from ..text.numerals import QUANTITY_UNITS, chinese_numeral
from ..types import CitationCheck, SourceRef
from .prompt import NOT_IN_POLICY
from .stated_numbers import Quantity, quantities_in, supports

__all__ = ["check_citations", "chinese_numeral", "cites_a_source", "numbers_in", "remove_unknown_citations",
           "unsupported_sentences"]

# [资料3], 【资料3】, ［资料3］ (full-width), [资料 3], [资料3、4], [资料1、资料9], [资料1-3] and [资料1～资料3]
# are all citations a model writes.
_REF = r"\d+(?:\s*[-–—~～－至到]\s*(?:资料\s*)?\d+)?"
# [资料1；资料2] and [资料1和2] list sources too (a ； inside a citation ends no sentence).
_CITATION = re.compile(rf"[\[【［]\s*资料\s*({_REF}(?:\s*(?:[、,，;；]|和|及)\s*(?:资料\s*)?{_REF})*)\s*[\]】］]")
_ITEM = re.compile(r"\s*(?:[、,，;；]|和|及)\s*")
# Other ways a model names a source (the labels and brackets the prompt side neutralises, `text.markers`):
# （资料9）, 《资料8》, [Source 9], [ref: 2、3], and 资料7 bare (资料7第三条). A bare one followed by a count (资料2份,
# 资料 3 页) is material, not a source, and 资料室 or 资料费 has no number to be one.
_DIGITS = r"[0-9０-９]+"
_LOOSE_REF = rf"{_DIGITS}(?:\s*[-–—~～－至到]\s*(?:资\s*料\s*)?{_DIGITS})?"
_LOOSE = re.compile(
    rf"[{re.escape(_OPEN)}(（]\s*(?:{_LABEL})\s*[#＃:：]?\s*"
    rf"({_LOOSE_REF}(?:\s*[、,，]\s*(?:(?:{_LABEL})\s*[#＃:：]?\s*)?{_LOOSE_REF})*)\s*[{re.escape(_CLOSE)})）]"
    rf"|(?:资\s*料|資\s*料)\s*({_LOOSE_REF})(?![0-9０-９.．\-–—~～－至到]|\s*[{re.escape(QUANTITY_UNITS)}页本件册])",
    re.IGNORECASE,
)
# [资料五], 【资料十二】: the number spelled in Chinese, read as [资料5] before anything else (`_digits_cited`)
_CN_CITATION = re.compile(r"([\[【［]\s*资料\s*)([一二两三四五六七八九十百]+)(\s*[\]】］])")
_MAX_RANGE = 50  # [资料1-999999] is no list of sources: only its ends are read
_SENTENCE = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]*|\n")


def without_citations(text: str) -> str:
    """`text` with every citation taken out, strict or loose: what is left is what the answer says."""
    return _LOOSE.sub("", _CITATION.sub("", text))


def cites_a_source(text: str) -> bool:
    """The text cites at least one numbered source, in any of the forms a model writes: [资料1], or in its own words
    (根据资料1, （资料1）: `_LOOSE`)."""
    return bool(_CITATION.search(text) or _LOOSE.search(text))


_LEADING_CITATIONS = re.compile(r"^\s*((?:[\[【［]\s*资料[^\]】］]*[\]】］]\s*)+)")

def _quantities(text: str) -> list[Quantity]:
    """The quantities stated outside citations, strict or loose (资料1-3 names sources, not amounts)."""
    return quantities_in(_LOOSE.sub(" ", _CITATION.sub(" ", text)))


def numbers_in(text: str) -> list[tuple[str, set[float]]]:
    """Each number the text states: (as written, its value after scale), ordinals and citations left out."""
    return [(q.written, {q.value}) for q in _quantities(text)]


def _citation_numbers(inside: str) -> list[int]:
    """The source numbers of one citation's inside: 1、资料9 → [1, 9]; 1-3 → [1, 2, 3]."""
    numbers: list[int] = []
    for item in _ITEM.split(inside):
        ends = [int(n) for n in re.findall(r"\d+", item)]
        low, high = min(ends), max(ends)
        numbers.extend(range(low, high + 1) if high - low <= _MAX_RANGE else (low, high))
    return list(dict.fromkeys(numbers))


def cited_numbers(text: str) -> list[int]:
    """The N of every source `text` cites as [资料N] (lists and ranges too: [资料1、2], [资料1-3]), in order, once each."""
    return list(dict.fromkeys(n for match in _CITATION.finditer(text) for n in _citation_numbers(match.group(1))))


def citation_spans(text: str) -> list[tuple[int, int]]:
    """Where each [资料N] citation of `text` starts and ends (a mark placed after a sentence must not split one)."""
    return [match.span() for match in _CITATION.finditer(text)]


def _cited(sentence: str) -> list[int]:
    """The sources a sentence names, strict ([资料1]) or in the model's own words (根据资料1, （资料1）, 见资料1)."""
    numbers: list[int] = []
    for match in _CITATION.finditer(sentence):
        numbers.extend(_citation_numbers(match.group(1)))
    for match in _LOOSE.finditer(_CITATION.sub(" ", sentence)):
        numbers.extend(_citation_numbers(unicodedata.normalize("NFKC", match.group(1) or match.group(2))))
    return list(dict.fromkeys(numbers))


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


def _digits_cited(answer: str) -> str:
    """[资料五] written [资料5], so it is checked and linked as any other citation."""
    def digits(match: re.Match[str]) -> str:
        value = chinese_numeral(match.group(2))
        return f"{match.group(1)}{value}{match.group(3)}" if value else match.group(0)
    return _CN_CITATION.sub(digits, answer)


def remove_unknown_citations(answer: str, sources: Sequence[SourceRef]) -> tuple[str, list[int]]:
    """The answer without citations of numbers the prompt did not have, and those numbers."""
    known = {s.number for s in sources}
    removed: list[int] = []
    answer = _digits_cited(answer)

    def keep_known(match: re.Match[str]) -> str:
        numbers = _citation_numbers(match.group(1) or match.group(2))
        good = [n for n in numbers if n in known]
        removed.extend(n for n in numbers if n not in known)
        return "".join(f"[资料{n}]" for n in good)

    def keep_known_loose(match: re.Match[str]) -> str:
        numbers = _citation_numbers(match.group(1) or match.group(2))
        if all(n in known for n in numbers):
            return match.group(0)  # a real source, in the model's own wording
        return keep_known(match)

    cleaned = _LOOSE.sub(keep_known_loose, _CITATION.sub(keep_known, answer))
    cleaned = re.sub(r"[ \t]+([。！？!?，,；;])", r"\1", cleaned)  # "500 元 。" left by a removal
    return cleaned, sorted(set(removed))


def unsupported_sentences(answer: str, sources: Sequence[SourceRef]) -> list[str]:
    """Sentences stating a number that none of their cited clauses (or any clause, if uncited) states."""
    by_number = {s.number: s for s in sources}
    every = [s for s in sources]
    unsupported: list[str] = []
    for sentence in _sentences(answer):
        if without_citations(sentence).strip().rstrip("。.！!") == NOT_IN_POLICY:
            continue  # the product's own refusal line states no number (这一条 is which clause, not one of them)
        stated = _quantities(sentence)
        if not stated:
            continue
        cited = [by_number[n] for n in _cited(sentence) if n in by_number] or every
        clause = [q for s in cited for q in _quantities(f"{s.source} {s.section} {s.text}")]
        if any(not any(supports(c, q) for c in clause) for q in stated):
            unsupported.append(sentence.strip())
    return unsupported


def check_citations(answer: str, sources: Sequence[SourceRef]) -> tuple[str, CitationCheck]:
    """(the answer with unknown citations removed, what was removed and which sentences lack support)."""
    cleaned, removed = remove_unknown_citations(answer, sources)
    return cleaned, CitationCheck(checked=True, removed=removed, unsupported=unsupported_sentences(cleaned, sources))
