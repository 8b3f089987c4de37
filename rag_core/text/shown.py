"""Stored text masked as it is read out, by today's masker.

A store keeps what an older version wrote: its masker may have missed a category today's catches (a phone
in Chinese digits). Readers mask what they show, export or put in a prompt (as `memory.recall.read_out`
does), so an upgrade masks old rows without rewriting them. Cached: a page shown again (every Streamlit
rerun) and a clause repeated in a trace's hits, sources and prompt are masked once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .pii import redact_text


@lru_cache(maxsize=4096)
def shown(text: str) -> str:
    """`text` masked for personal data (`redact_text` is idempotent: text masked when stored is unchanged)."""
    return redact_text(text)


_IDS = frozenset({"id", "conversation"})  # keys whose values are identifiers the engine looks up, not text shown


def shown_tree(value: Any) -> Any:
    """Every string in a JSON-like value (a stored trace: dicts, lists, numbers) masked; the rest as it was.
    Identifiers (`id`, `*_id`, `conversation`) stay literal: a memory id an undo deletes by must still match."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {key: item if key in _IDS or str(key).endswith("_id") else shown_tree(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shown_tree(item) for item in value]
    return value
