"""A memory purge that lands while a turn is answered or undone.

`purge_memories` deletes a person's memories, then takes them out of the turns stored by then
(`ConversationStore.rewrite_turns` with `insights.rows.purged_turn`). A turn whose answer was still streaming
is written after that: it quoted memories no longer stored. `memories_gone` tells such a turn, so it is kept as
the purge would have left it.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..errors import MemoryStoreError


def memories_gone(memory: Any, record: dict[str, Any], user: str) -> bool:
    """Whether the memories a turn's record (`AskTrace.to_dict`) used or told were purged since it recalled or wrote
    them: one it names is no longer stored (only a purge takes out a live row: a delete keeps it, marked), or, for a
    search made with memories none of which the prompt held, the person has none left at all. `memory`: the
    assistant's memory store (`get`, `count`)."""
    named = [m.get("id") for m in [*(record.get("memories") or []), *(record.get("acknowledged") or [])]]
    if not user or not (named or record.get("memory_search")):
        return False
    try:
        if any(memory.get(i, user_id=user) is None for i in named if i):
            return True
        return not named and not memory.count(user, include_deleted=True)
    except (MemoryStoreError, sqlite3.Error):  # unreadable: the turn is kept as answered (a later purge rewrites it)
        return False
