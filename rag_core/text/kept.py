"""Personal data a document was let keep, kept again where a model's answer repeats it.

HR may keep categories at upload (a hotline's landline), or all of them with RAG_REDACT_PII=false: the clause then
holds the value as it is, and search, the sources and the offline answer show it. A model's answer is masked in
every category as it is written (it may copy a memory or invent a number), so a model quoting the hotline showed
[座机号] where its own source, beside it, showed the number. The values a clause holds that today's masker would mask
are the ones its document kept; an answer built from those clauses keeps exactly those values and masks the rest.
They were in the person's sources already: no value reaches anyone who could not read it there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import lru_cache

from .digit_runs import private_use_chars
from .pii import redact_text

SHORTEST_VALUE = 5  # characters: a span masking replaced that is shorter is no phone, card, ID or address


def kept_values(clauses: Iterable[str]) -> frozenset[str]:
    """The values in `clauses` that today's masker would mask: those their documents kept."""
    return frozenset().union(*(_clause_values(clause) for clause in clauses))


@lru_cache(maxsize=4096)
def _clause_values(clause: str) -> frozenset[str]:
    """Cached: a conversation read again (every rerun) looks at the same clauses of every turn a model answered."""
    masked = redact_text(clause)
    if masked == clause:
        return frozenset()
    matcher = SequenceMatcher(None, clause, masked, autojunk=False)
    return frozenset(value for tag, start, end, _, _ in matcher.get_opcodes()
                     if tag in ("replace", "delete") and len(value := clause[start:end].strip()) >= SHORTEST_VALUE)


def masked_keeping(text: str, kept: frozenset[str]) -> str:
    """`text` masked in every category but for the values in `kept` it holds, which stay as they are."""
    if not text or not kept:
        return redact_text(text)
    held: dict[str, str] = {}
    stand_ins = private_use_chars(text)
    for value in sorted(kept, key=len, reverse=True):
        # the value whole, not a run inside a longer number (a kept mobile's digits inside a bank card's)
        whole = re.compile(rf"(?<![0-9A-Za-z０-９＠@.]){re.escape(value)}(?![0-9A-Za-z０-９＠@])")
        if whole.search(text):
            char = next(stand_ins)
            held[char] = value
            text = whole.sub(char, text)
    masked = redact_text(text)
    return masked.translate({ord(char): value for char, value in held.items()}) if held else masked
