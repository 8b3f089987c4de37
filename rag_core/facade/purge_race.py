"""A memory purge that lands while a turn is answered or undone.

`purge_memories` deletes a person's memories, then takes them out of the turns stored by then
(`ConversationStore.rewrite_turns` with `insights.rows.purged_turn`). A turn whose answer was still streaming
is written after that: it quoted memories no longer stored. `memories_gone` tells such a turn, so it is kept as
the purge would have left it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from ..errors import MemoryStoreError


def memories_gone(open_memory: Callable[[], Any], record: dict[str, Any], user: str) -> bool:
    """Whether the person's memories were purged since the turn (its record, `AskTrace.to_dict`) recalled or wrote
    them: it used or told some, and the person has no row left at all, live or deleted. Only `purge_user` leaves
    that: the retention sweep hard-deletes rows deleted before (with retention 0, at once), so "a row it named is
    gone" alone took a sweep for a purge and blanked every turn of the person (review rev-own3). `open_memory`: the
    assistant's memory store, opened inside the check (a damaged one is no purge: the turn is kept as answered)."""
    named = [m.get("id") for m in [*(record.get("memories") or []), *(record.get("acknowledged") or [])]]
    if not user or not (named or record.get("memory_search")):
        return False
    try:
        return not open_memory().count(user, include_deleted=True)
    except (MemoryStoreError, sqlite3.Error):  # unreadable: the turn is kept as answered (a later purge rewrites it)
        return False
