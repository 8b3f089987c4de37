"""Memory actions: add, recall, list, re-weigh, delete, forget, purge.

Scoring and storage live in `rag_core.memory`; this mixin opens the store on
first use and forwards with the current time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ..types import MemoryHit


def _utcnow() -> datetime:
    return datetime.now(UTC)


class MemoryActions:
    """Mixin of `Assistant`: everything the memories page and `memory` commands do."""

    @property
    def memory(self):
        """The per-user memory store, opened on first use."""
        if self._memory is None:
            from ..memory import MemoryStore

            s = self._settings
            self._memory = MemoryStore(
                s.path("memory.sqlite3"), self.embedder, half_life_days=s.memory_half_life_days,
                threshold=s.memory_threshold, top_k=s.memory_top_k, retention_days=s.memory_retention_days,
            )
            # housekeeping that has no other trigger: expire stale chatter, purge old soft-deletes
            now = _utcnow()
            self._memory.expire(now)
            self._memory.purge_deleted(now)
        return self._memory

    def remember(self, user: str, content: str, kind: str = "profile", importance: float | None = None,
                 created_at: datetime | None = None) -> tuple[str, str]:
        """Store a memory for `user`; returns (memory id, what happened: added/reinforced/replaced)."""
        return self.memory.add(user, content, kind=kind, importance=importance, created_at=created_at, now=_utcnow())

    def recall(self, user: str, query: str, now: datetime | None = None) -> list[MemoryHit]:
        """The memories of `user` that pass the threshold for `query`."""
        return self.memory.search(user, query, now=now or _utcnow())

    def list_memories(self, user: str, query: str | None = None, kind: str | None = None) -> list[MemoryHit]:
        """All memories of `user`, optionally filtered by text or kind."""
        return self.memory.list(user, now=_utcnow(), query=query, kind=kind)

    def update_memory_importance(self, memory_id: str, importance: float) -> None:
        """Set a memory's importance (0–1)."""
        self.memory.update_importance(memory_id, importance)

    def delete_memories(self, memory_ids: Sequence[str]) -> int:
        """Delete memories by id; returns how many were deleted."""
        return self.memory.delete(list(memory_ids), now=_utcnow())

    def preview_forget(self, keep: int, user: str | None = None) -> list[MemoryHit]:
        """The memories `forget_memories(keep)` would remove, without removing them."""
        return self.memory.preview_forget(keep, user_id=user, now=_utcnow())

    def forget_memories(self, keep: int, user: str | None = None) -> int:
        """Keep the `keep` best memories by importance × freshness; returns how many were forgotten."""
        return self.memory.forget(keep, user_id=user, now=_utcnow())

    def purge_memories(self, user: str) -> int:
        """Delete every memory of `user` for good."""
        return self.memory.purge_user(user)
