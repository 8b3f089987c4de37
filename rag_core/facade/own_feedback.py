"""A person's own ratings read back: the chat page shows a 👎's reason and comment again after a refresh.

A rating's reason and comment are kept only in HR's review table (`InsightLog`), and reading it for review takes
the "insights" permission, so an employee's chat page could show their 👎 but not why they gave it. This reads
only the ratings the conversation's owner gave in it, after the owner check every conversation action makes
(`ConversationOwner`: another person's conversation is refused, with its audit row). Split from
`facade.insights` (kept under the 400-line limit); `InsightActions` inherits `OwnFeedback`.
"""

from __future__ import annotations

from typing import Any

from ..insights.log import TurnFeedback
from ..types import Principal
from .conversation_owner import ConversationOwner
from .question_log import QuestionLog
from .stores import INSIGHTS_FILE, uses_store


class OwnFeedback(QuestionLog, ConversationOwner):
    """Mixin of `Assistant` (through `InsightActions`): the asker's own ratings of one of their conversations."""

    insight_log: Any

    @uses_store(INSIGHTS_FILE)
    def turn_feedback(self, conversation_id: str, *, actor: Principal | None = None) -> dict[int, TurnFeedback]:
        """The owner's rating, reason and comment per rated turn of `conversation_id` (turns never rated, or whose
        rating was taken back or expired with the retention, are absent); refused unless the actor owns it."""
        owner = self._owned(conversation_id, actor, "read").user  # the owner check alone: no turn is read
        self._expire()  # a comment past the retention is gone from HR's table: it is not shown back either
        return self.insight_log.turn_feedback(owner, conversation_id)
