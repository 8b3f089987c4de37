"""A list's lead-in and the items an answer quotes from that list go on one line.

Policies state many rules as a lead-in and its items: 职工因下列情形之一导致本人在工作中伤亡的，不认定为工伤：
then （一）故意犯罪的；（二）醉酒或者吸毒的；…。 An item alone (（二）醉酒或者吸毒的；) does not say what it is an
item of, and a lead-in alone answers nothing, so an answer that quotes both shows them together, where the
first of them would have stood, lead-in first. Both stay verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

LEAD_IN_ENDS = ("：", ":")


class Sentence(Protocol):
    text: str
    source_number: int
    position: int


S = TypeVar("S", bound=Sentence)


def is_lead_in(text: str) -> bool:
    """A sentence that opens a list (…有下列情形之一的：)."""
    return text.rstrip().endswith(LEAD_IN_ENDS)


# Kinds of list markers: an item of a list opens with one of its own list's kind (（一）, 1., 一、 …)
_MARKERS = (
    re.compile(r"[（(][一二三四五六七八九十]+[)）]"),
    re.compile(r"[（(]\d+[)）]"),
    re.compile(r"[一二三四五六七八九十]+[、.．]"),
    re.compile(r"\d+[.、．)）](?!\d)"),
    re.compile(r"[①-⑳]"),
    re.compile(r"[-•*·]"),
)


def marker_kind(text: str) -> int | None:
    """Which kind of list marker the sentence opens with (None: it is no list item)."""
    text = text.lstrip()
    return next((kind for kind, pattern in enumerate(_MARKERS) if pattern.match(text)), None)


def list_items(lead_in: Sentence, every: Sequence[Sentence]) -> set[tuple[int, int]]:
    """The items of the lead-in's own list: the sentences after it in its source that open with the marker kind
    of the first one. An item of a list nested in it (another kind) is passed over; the list ends at the first
    sentence with no marker, or with the marker kind of the lead-in itself (it is an item of an outer list)."""
    after = sorted((s for s in every if s.source_number == lead_in.source_number and s.position > lead_in.position),
                   key=lambda s: s.position)
    own_kind = marker_kind(lead_in.text)
    members: set[tuple[int, int]] = set()
    kind = None
    for sentence in after:
        found = marker_kind(sentence.text)
        if found is None or (found == own_kind and own_kind is not None):
            break
        kind = found if kind is None else kind
        if found == kind:
            members.add((sentence.source_number, sentence.position))
    return members


def answer_lines(quoted: Sequence[S], every: Sequence[S]) -> list[list[S]]:
    """The quotes as the answer's lines, in their order, except that a quoted lead-in and the quoted items of
    its list share one line (lead-in, then the items in list order) at the place of whichever came first.
    `every` is all the sentences of the sources, which says where a list ends."""
    key = lambda s: (s.source_number, s.position)  # noqa: E731
    group_of: dict[tuple[int, int], tuple[int, int]] = {}
    for lead_in in (q for q in quoted if is_lead_in(q.text)):
        items = list_items(lead_in, every)
        members = [q for q in quoted if key(q) in items and key(q) not in group_of]
        if members and key(lead_in) not in group_of:
            for member in (lead_in, *members):
                group_of[key(member)] = key(lead_in)
    lines: list[list[S]] = []
    placed: set[tuple[int, int]] = set()
    for quote in quoted:
        group = group_of.get(key(quote))
        if group is None:
            lines.append([quote])
        elif group not in placed:
            placed.add(group)
            lines.append(sorted((q for q in quoted if group_of.get(key(q)) == group), key=lambda q: q.position))
    return lines
