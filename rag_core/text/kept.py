"""Personal data a document was let keep, kept again where a model's answer repeats it.

HR may keep categories at upload (a hotline's landline), or all of them with RAG_REDACT_PII=false: the clause then
holds the value as it is, and search, the sources and the offline answer show it. A model's answer is masked in
every category as it is written (it may copy a memory or invent a number), so a model quoting the hotline showed
[座机号] where its own source, beside it, showed the number. A value a clause holds that today's masker masks in
that clause was kept by its document (or stored before masking, which the source shows all the same); an answer built
from those clauses keeps exactly those values, and masks everything else.

Both sides are the masker's own values (`masked_spans`): the answer is masked first, and a placeholder is given back
only when what it replaced is exactly a kept value. Whatever the masker read as a longer or another value stays
masked: a kept 12345 keeps no 13812345678, a kept hr@corp.com no zhang_hr@corp.com or hr@corp.com.cn, a kept
62345678 no 021-62345678. Values were in the person's sources already: no value reaches anyone who could not read
it there.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .masked_spans import masked_spans
from .pii import redact_text

SHORTEST_VALUE = 5  # characters: a value shorter than this is no phone, card, ID or address
# Characters that would make a value part of a longer address or number if they touched it; the masker decides
# where a value ends, this only refuses to give one back when a neighbour looks like it continues it.
_JOINS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz０１２３４５６７８９_-－+@＠")


def kept_values(clauses: Iterable[str]) -> frozenset[str]:
    """The values in `clauses` that today's masker masks there: those their documents kept."""
    return frozenset().union(*(_clause_values(clause) for clause in clauses))


@lru_cache(maxsize=4096)
def _clause_values(clause: str) -> frozenset[str]:
    """Cached: a conversation read again (every rerun) looks at the same clauses of every turn a model answered."""
    _pieces, _placeholders, spans = masked_spans(clause)
    return frozenset(value for span in spans if span and len(value := clause[slice(*span)]) >= SHORTEST_VALUE)


def masked_keeping(text: str, kept: frozenset[str]) -> str:
    """`text` masked in every category but for the values in `kept`, where the masker masked exactly one of them."""
    if not text or not kept:
        return redact_text(text)
    pieces, placeholders, spans = masked_spans(text)
    out = [pieces[0]]
    for placeholder, span, piece in zip(placeholders, spans, pieces[1:], strict=True):
        value = text[slice(*span)] if span else ""
        out += [value if value in kept and _stands_alone(text, *span) else placeholder, piece]
    return "".join(out)


def _stands_alone(text: str, start: int, end: int) -> bool:
    """No neighbour continues the value (a letter, digit, _, -, +, @; a '.' before it or before more of it)."""
    before, after = text[start - 1 : start], text[end : end + 2]
    return before not in _JOINS and before != "." and after[:1] not in _JOINS and not (
        after[:1] == "." and after[1:2] in _JOINS)
