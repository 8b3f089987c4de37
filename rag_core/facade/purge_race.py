"""A memory purge that lands while a turn is answered or undone.

`purge_memories` deletes a person's memories, then takes them out of the turns stored by then
(`ConversationStore.rewrite_turns` with `insights.rows.purged_turn`). A turn whose answer was still streaming
is written after that: it quoted memories no longer stored. `memories_gone` tells such a turn, so it is kept as
the purge would have left it. A delete or forget by id (or an undo) of a memory the turn used, landing while it is
answered, is caught the same way (`changed_used`, as is an edit): `as_left` keeps the turn as either would have left it.

A delete or forget by id (`forget_in_turns`) takes those memories out of the person's stored turns the same way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import MemoryStoreError, RagError
from ..insights.rows import MEMORIES_EDITED, forgotten_turn, purged_turn


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


def changed_used(open_memory: Callable[[], Any], record: dict[str, Any], user: str) -> tuple[list[str], list[str]]:
    """The memories the turn (its record) used that changed while it was answered, read from the store once:
    (deleted, edited). Deleted: no longer active — a delete, forget or undo by id (`forget_in_turns` rewrote only the
    turns stored by then), or a row gone altogether (a retention sweep after the delete). Edited: active, with another
    text than the turn quoted (`edited_in_turns` likewise, review 394 #3). `open_memory` as in `memories_gone`: a
    damaged store names none (a later delete or edit rewrites the turn)."""
    used = {m.get("id"): m.get("content") for m in record.get("memories") or [] if isinstance(m, dict) and m.get("id")}
    if not used:
        return [], []
    try:
        memory = open_memory()
        rows = {mid: memory.get(mid, user_id=user or None) for mid in used}
    except (MemoryStoreError, sqlite3.Error):
        return [], []
    deleted = [mid for mid, row in rows.items() if row is None or row.deleted_by_person]
    edited = [mid for mid, row in rows.items() if mid not in deleted and used[mid] is not None and row.content != used[mid]]
    return deleted, edited


def as_left(open_memory: Callable[[], Any], record: dict[str, Any], answer: str,
            user: str) -> tuple[dict[str, Any], str] | None:
    """The turn (record, answer) as a purge (`purged_turn`) or a delete by id (`forgotten_turn`) since it recalled
    its memories would have left it; None when neither landed."""
    if memories_gone(open_memory, record, user):
        return purged_turn(record, answer)
    deleted, edited = changed_used(open_memory, record, user)
    if deleted:
        return forgotten_turn(deleted)(record, answer)
    if edited:
        return forgotten_turn(edited, MEMORIES_EDITED)(record, answer)
    return None


def landed(open_memory: Callable[[], Any], record: dict[str, Any], user: str) -> bool:
    """Whether a purge, a delete by id or an edit landed since the turn recalled its memories (`as_left` would change it)."""
    return memories_gone(open_memory, record, user) or any(changed_used(open_memory, record, user))


def forget_in_turns(assistant: Any, memory_ids: Sequence[str]) -> str:
    """Take the memories of `memory_ids` no longer active (just deleted or forgotten) out of their owners' stored
    turns (`insights.rows.forgotten_turn`), as a purge takes all of them; the audit's note on it. A damaged or busy
    conversation store does not undo the delete: the note says so. `assistant`: the facade, its stores opened here."""
    gone: dict[str, list[str]] = {}
    try:
        for memory_id in dict.fromkeys(memory_ids):
            record = assistant.memory.get(memory_id)
            if record is not None and record.deleted_by_person:
                gone.setdefault(record.user_id, []).append(memory_id)
        turns = sum(assistant.conversations.rewrite_turns(user, forgotten_turn(ids)) for user, ids in gone.items())
    except (RagError, sqlite3.Error):
        return "；对话记录读写出错，其中用到的记忆未能删除"
    return f"；{turns} 轮对话里的记忆一并删除" if turns else ""


def edited_in_turns(assistant: Any, memory_id: str, user: str) -> str:
    """An edited memory's earlier text taken out of the stored turns that quoted it, as a delete takes it (review
    390 #3: a detail edited out stayed in 使用的记忆, the stored prompt and the export); the audit's note on it."""
    try:
        turns = assistant.conversations.rewrite_turns(user, forgotten_turn([memory_id], MEMORIES_EDITED))
    except (RagError, sqlite3.Error):
        return "；对话记录读写出错，之前的对话里仍是修改前的内容"
    return f"；{turns} 轮对话里修改前的内容一并删除" if turns else ""
