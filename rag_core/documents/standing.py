"""Which live versions still stand: the one in effect today and the ones scheduled to come.

A scheduled version's day retires nothing in the catalog: the version it replaces stays `status='current'`
with its chunks. So `Catalog.live_versions()` holds versions no reader sees any more; permission checks and the
standard answers' basis read the versions that stand (built on `catalog.versions_in_effect`, the one owner of
"in effect") instead, as search and the documents list do.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..types import DocumentInfo
from .catalog import versions_in_effect


def scheduled(version: DocumentInfo, today: str) -> bool:
    """Is `version` dated after `today`: still to take effect?"""
    return (version.effective_date or "") > today


def standing_versions(live: Iterable[DocumentInfo], today: str) -> list[DocumentInfo]:
    """The versions of `live` in effect on `today` or dated after it (what the documents list shows), in order."""
    live = list(live)
    in_effect = {id(v) for v in versions_in_effect(live, today).values()}
    return [v for v in live if id(v) in in_effect or scheduled(v, today)]


def effect_by_day(live: Iterable[DocumentInfo], today: str) -> list[tuple[str, list[DocumentInfo]]]:
    """(day, the versions in effect that day) for `today` and each later effective date: every state the library
    will be in until another upload, so a check made now holds on the days scheduled versions take effect too."""
    live = list(live)
    days = [today, *sorted({v.effective_date for v in live if scheduled(v, today)})]
    return [(day, list(versions_in_effect(live, day).values())) for day in days]
