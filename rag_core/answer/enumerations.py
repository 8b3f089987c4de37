"""An enumeration is one rule: its parts, each ended by ；, are quoted together.

Chinese policies write parallel cases as one sentence cut by semicolons (已满1年不满10年的，…5天；已满10年不满20年的，
…10天；已满20年的，…15天。). The sentence splitter cuts there too, so an answer limited to three sentences could quote
two bands of three, or a rule without its second half (…80%发放； without 超过10天的部分…): a reader then takes the
wrong entitlement (the UX walkthrough of stop 58). Only parts within one line: items of a list, each on its own line
(- 年假当年内有效…； / - 年假5天；), are rules apart, and quoting them all only made answers long. Pure: the quotes are anything with `source_number`, `position`
and `text`, as `answer.extractive.Quote`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

ENUMERATION_PARTS = 8  # a longer enumeration is a list of cases, not one rule; also the most parts one answer adds
_PART_END = "；"


class Placed(Protocol):
    source_number: int
    position: int
    text: str
    is_heading: bool
    line_end: bool  # a part that ends its line ends the enumeration: list items on their own lines are rules apart


def _runs_on(part: Placed | None) -> bool:
    """Whether the enumeration goes on after `part`: it ends with ；within its line."""
    return part is not None and part.text.endswith(_PART_END) and not part.line_end and not part.is_heading


Q = TypeVar("Q", bound=Placed)


def enumeration_of(quote: Q, by_place: dict[tuple[int, int], Q]) -> list[Q]:
    """The parts of the enumeration `quote` belongs to, in the clause's order ([quote] when it belongs to none)."""
    source = quote.source_number
    if by_place.get((source, quote.position)) is None or by_place[(source, quote.position)].text != quote.text:
        return [quote]  # not placed in this reading of the sources: left as it is
    start = end = quote.position
    while _runs_on(by_place.get((source, start - 1))):
        start -= 1
    while _runs_on(by_place[(source, end)]) and (source, end + 1) in by_place:
        end += 1
    if end - start + 1 > ENUMERATION_PARTS:  # a long list (有下列情形之一的：（一）…；…（十一）…) is cases, not one rule:
        return [quote]  # its first items would push out the one that answers (review 213)
    return [by_place[(source, i)] for i in range(start, end + 1)]


def whole_enumerations(ordered: Sequence[Q], every: Sequence[Q]) -> list[Q]:
    """`ordered` with every part of each enumeration one of its quotes belongs to, the parts in the clause's order
    where its first quoted part stood; the lead (the first quote) stays first, its enumeration's other parts after it."""
    by_place = {(q.source_number, q.position): q for q in every}
    out: list[Q] = []
    seen: set[tuple[int, int]] = set()
    added = 0  # parts joined besides the quotes themselves: at most ENUMERATION_PARTS in one answer
    for index, quote in enumerate(ordered):
        if (quote.source_number, quote.position) in seen:
            continue
        parts = enumeration_of(quote, by_place)
        if len(parts) - 1 > ENUMERATION_PARTS - added:
            parts = [quote]
        if index == 0 or len(parts) == 1:
            out.append(quote)
            seen.add((quote.source_number, quote.position))
        for part in parts:
            if (part.source_number, part.position) not in seen:
                seen.add((part.source_number, part.position))
                out.append(part)
                added += part is not quote
    return out
