"""Turn a stored trace (`AskTrace.to_dict()`) back into the records the pages render.

A conversation reopened after a refresh or a restart shows each answer with the
same evidence cards and technical details it had when it was given. Unknown keys
are ignored and missing ones take their defaults, so traces stored by an older
version still open.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any

from ..types import UNKNOWN_AUDIENCE, AskTrace, Chunk, Hit, HitScores, MemoryHit, SearchResult, SourceRef


def _known(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _audience(data: dict[str, Any]) -> tuple[str, ...]:
    stored = data.get("audience")
    if isinstance(stored, list | tuple) and stored and all(isinstance(label, str) for label in stored):
        return tuple(stored)
    # readers not stored: an administrator's only, never 全体员工 (a rating of a reopened managers-only answer was
    # stored as one of an all-staff answer, review 367)
    return UNKNOWN_AUDIENCE


def _hit(data: dict[str, Any]) -> Hit:
    chunk_id = str(data.get("chunk_id", ""))
    index = chunk_id.rsplit("#", 1)[-1]
    chunk = Chunk(
        chunk_id=chunk_id, doc_id=str(data.get("doc_id", "")), version=int(data.get("version") or 0),
        index=int(index) if index.isdigit() else 0, text=str(data.get("text", "")), source=str(data.get("source", "")),
        title=str(data.get("title", "")), section=str(data.get("section", "")), page=data.get("page"),
        audience=_audience(data),
    )  # fmt: skip
    return Hit(chunk=chunk, scores=HitScores(**_known(HitScores, data.get("scores") or {})))


def search_from_dict(data: dict[str, Any]) -> SearchResult:
    values = _known(SearchResult, data)
    values["hits"] = [_hit(h) for h in data.get("hits", [])]
    values["near_misses"] = [_hit(h) for h in data.get("near_misses", [])]
    values.setdefault("query", "")
    return SearchResult(**values)


def trace_from_dict(data: dict[str, Any]) -> AskTrace:
    """The AskTrace a stored turn was made from (timings are the merged ones of the stored trace)."""
    values = _known(AskTrace, data)
    values["search"] = search_from_dict(data)
    values["timings_ms"] = {}  # the stored timings are the merged ones: the search record shows them all
    values["memories"] = [MemoryHit(**_known(MemoryHit, m)) for m in data.get("memories", [])]
    values["sources"] = [SourceRef(**_known(SourceRef, s)) for s in data.get("sources", [])]
    for spec in fields(AskTrace):  # nested records added later (the citation check …) rebuilt from their dicts
        if spec.name in values and isinstance(values[spec.name], dict) and spec.default_factory is not MISSING:
            blank = spec.default_factory()
            if is_dataclass(blank):
                values[spec.name] = type(blank)(**_known(type(blank), values[spec.name]))
    for required in ("question", "answer", "prompt", "answerer"):
        values.setdefault(required, "")
    for number in ("prompt_tokens", "token_budget", "dropped_hits"):
        values.setdefault(number, 0)
    return AskTrace(**values)
