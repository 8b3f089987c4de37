"""Whose conversation it is: the owner check every conversation action makes, with its audit row.

Split from `facade.conversations` so the parts that act on one turn of a conversation (the asker's own ratings
read back, `OwnFeedback`) check the owner the same way without reading its turns: reading and masking a
4000-turn conversation to learn its owner cost 4 s on every chat page run (review 323).
"""

from __future__ import annotations

from typing import Any

from ..conversations.store import Conversation, ConversationError, check_turn
from ..errors import PermissionDenied
from ..types import Principal
from .access import require_owner
from .core import FacadeCore
from .stores import CONVERSATIONS_FILE, feature_store, uses_store


class ConversationOwner(FacadeCore):
    """Mixin of `Assistant`: a conversation as its owner (or an administrator) may act on it."""

    conversations: Any  # the conversation store (`ConversationActions.conversations`)

    def _owned(self, conversation_id: str, actor: Principal | None, verb: str, *, turns: bool = False,
               last: int | None = None) -> Conversation:
        actor = self._acting(actor, "ask")
        with feature_store(CONVERSATIONS_FILE):  # damage names this file, whichever store the action is about
            conv = self.conversations.get(conversation_id, with_turns=turns, last=last)
        if conv is None:
            raise ConversationError(f"找不到对话：{conversation_id}")
        self._owner_checked(actor, conv.user, verb, f"{conv.user} 的对话 {conversation_id}")
        return conv

    def _owner_checked(self, actor: Principal, owner: str, verb: str, target: str) -> None:
        """Refuse another person's conversations unless the actor may act on everyone's, with one audit row
        either way: a refusal, or an administrator reading or changing someone else's (as with memories)."""
        try:
            require_owner(actor, owner, "ask")
        except PermissionDenied as exc:
            self._audit(actor, "refused", f"{verb} {target}", "refused", str(exc))
            raise
        if owner and owner != actor.user:  # nobody's conversation ("") is an evaluation's: no person to account to
            self._audit(actor, f"conversation.{verb}", target)

    @uses_store(CONVERSATIONS_FILE)
    def turn_rating(self, conversation_id: str, turn: int, *, actor: Principal | None = None) -> int | None:
        """The rating kept with one turn now (another tab may have changed it), read without the other turns."""
        self._owned(conversation_id, actor, "read")
        return self.conversations.rating(conversation_id, check_turn(conversation_id, turn))
