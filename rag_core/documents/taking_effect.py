"""Which live versions will ever answer: the one in effect today and each scheduled one that wins its day.

A scheduled version another one dated the same day replaces (the higher version wins the tie: the correction)
is never in effect: `standing_versions` still lists it (it is dated after today), but no reader will ever see
it. Read from `effect_by_day` (every state the library will be in), not derived again: the re-cut writes only
these, the chunk preview and the delete question show only these, and the history names the others.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..types import DocumentInfo
from .standing import effect_by_day, scheduled


def taking_effect(live: Iterable[DocumentInfo], today: str) -> list[DocumentInfo]:
    """The versions of `live` in effect today or on some later effective date, in the order given."""
    live = list(live)
    answering = {id(v) for _, in_effect in effect_by_day(live, today) for v in in_effect}
    return [v for v in live if id(v) in answering]


def replaced_on_their_day(live: Iterable[DocumentInfo], today: str) -> list[DocumentInfo]:
    """The scheduled versions of `live` that will never take effect: one dated the same day replaces them first."""
    live = list(live)
    answering = {id(v) for v in taking_effect(live, today)}
    return [v for v in live if scheduled(v, today) and id(v) not in answering]
