"""Personal data a document was let keep, kept again where a model's answer repeats it.

HR may keep categories at upload (a hotline's landline), or all of them with RAG_REDACT_PII=false: the clause then
holds the value as it is, and search, the sources and the offline answer show it. A model's answer is masked in
every category as it is written (it may copy a memory or invent a number), so a model quoting the hotline showed
[座机号] where its own source, beside it, showed the number. A value a clause holds whole that today's masker masks in
that clause was kept by its document (or stored before masking, which the source shows all the same); an answer built
from those clauses keeps exactly those values, where they stand whole, and masks everything else.

Values are the clause's whole runs of digits (with their spaces, dashes and brackets) and its e-mail addresses, never
a piece of one: a kept 12345 does not keep 13812345678, and two hotlines written one after the other are kept only
together. They were in the person's sources already: no value reaches anyone who could not read it there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .digit_runs import private_use_chars
from .pii import redact_text

SHORTEST_VALUE = 5  # characters: a run shorter than this is no phone, card, ID or address
_DIGIT = "0-9０-９〇零一二三四五六七八九幺壹贰貳叁參肆伍陆陸柒捌玖"
_RUN = re.compile(rf"[{_DIGIT}](?:[{_DIGIT}\s\-－—()（）+]*[{_DIGIT}Xx])?")
_ADDRESS = re.compile(r"[\w.+\-]+[@＠][\w\-]+(?:[.。．][\w\-]+)+")
_EDGE = "0-9A-Za-z０-９＠@"


def kept_values(clauses: Iterable[str]) -> frozenset[str]:
    """The values in `clauses` that today's masker masks there: those their documents kept."""
    return frozenset().union(*(_clause_values(clause) for clause in clauses))


@lru_cache(maxsize=4096)
def _clause_values(clause: str) -> frozenset[str]:
    """Cached: a conversation read again (every rerun) looks at the same clauses of every turn a model answered."""
    masked = redact_text(clause)
    if masked == clause:
        return frozenset()
    runs = {m.group().strip() for pattern in (_RUN, _ADDRESS) for m in pattern.finditer(clause)}
    return frozenset(run for run in runs if len(run) >= SHORTEST_VALUE and run not in masked)


def masked_keeping(text: str, kept: frozenset[str]) -> str:
    """`text` masked in every category but for the values in `kept` where they stand whole in it."""
    if not text or not kept:
        return redact_text(text)
    held: dict[str, str] = {}
    stand_ins = private_use_chars(text)
    for value in sorted(kept, key=len, reverse=True):
        # the value whole, not a run inside a longer number (a kept 12345 inside a mobile, a mobile inside a card)
        whole = re.compile(rf"(?<![{_EDGE}.]){re.escape(value)}(?![{_EDGE}])")
        if whole.search(text):
            char = next(stand_ins)
            held[char] = value
            text = whole.sub(char, text)
    masked = redact_text(text)
    return masked.translate({ord(char): value for char, value in held.items()}) if held else masked
