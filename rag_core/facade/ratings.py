"""Rating an answer and taking the rating back: under whose name, and the audit row when it is someone else's.

Split from `assistant.py` (kept under the 400-line limit). A rating is the rater's own; only an administrator
rates (or withdraws) for someone else, and that leaves an audit row, as reading another person's conversation
does: the chat page shows the reason and comment back as the owner's own words. A refusal leaves one too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..conversations.store import ConversationError
from ..errors import PermissionDenied
from ..insights.rows import reviewed_trace
from ..types import AskTrace, Principal
from .access import require_owner
from .owner_names import KnownNames
from .question_log import QuestionLog
from .stores import CONVERSATIONS_FILE, feature_store


class RatingActions(KnownNames, QuestionLog):
    """Mixin of `Assistant`: 👍 / 👎 with the trace they rate, and withdrawing one."""

    rate_turn: Callable[..., None]
    open_conversation: Callable[..., tuple[Any, list[AskTrace]]]
    insight_log: Any

    def record_feedback(self, trace: AskTrace, rating: int, user: str | None = None, *,
                        actor: Principal | None = None, reason: str | None = None, comment: str = "") -> None:
        """Store a 👍 (1) or 👎 (-1) with the full trace it rates, under the rater's own name."""
        actor = self._acting(actor, "feedback.give")
        if trace.conversation:  # what is rated is the stored turn, not a trace the caller wrote (review 209)
            trace = self._stored_turn(trace, actor)
        user = self._rater(actor, user, trace, "代为评价")
        # HR's review copy keeps none of what the asker's memories hold (`reviewed_trace`); it is the only copy:
        # one the catalog also kept ignored the question retention and every purge
        self._review_feedback(trace, int(rating), user, reason, comment, reviewed_trace(trace))

    def withdraw_feedback(self, trace: AskTrace, user: str | None = None, *,
                          actor: Principal | None = None) -> None:
        """Take back a rating (the thumb clicked again): the turn keeps none, and the review row the same call of
        `record_feedback` would have written goes — the actor's own unless `user` names someone else, so an
        administrator undoing their own 👎 never deletes the owner's (their comment is theirs to take back)."""
        actor = self._acting(actor, "feedback.give")
        if trace.conversation and trace.turn:
            rater = self._rater(actor, user, trace, "代为撤回评价")
            self.rate_turn(trace.conversation, trace.turn, 0, actor=actor)  # refused (and audited) unless allowed
            self.insight_log.withdraw_feedback(rater, trace.conversation, trace.turn)

    def _stored_turn(self, trace: AskTrace, actor: Principal) -> AskTrace:
        """The turn as its conversation keeps it: refused (and audited) unless the conversation is the actor's or
        they may act on everyone's; an unknown turn is refused, so HR's review shows only answers given."""
        with feature_store(CONVERSATIONS_FILE):  # its size only, read unaudited: the one open below checks the owner
            conv = self.conversations.get(trace.conversation)
        count = conv.turn_count if conv is not None else 0
        last = count - int(trace.turn or 0) + 1 if 0 < int(trace.turn or 0) <= count else None
        stored = None
        for window in dict.fromkeys([last, None]):  # the turns from this one on (a 10k-turn conversation), else all
            _conversation, traces = self.open_conversation(trace.conversation, actor=actor, last=window)
            if (stored := next((t for t in traces if t.turn == trace.turn), None)) is not None or window is None:
                break
        if stored is None:
            raise ConversationError(f"找不到要评价的这一轮：对话 {trace.conversation} 第 {trace.turn} 轮")
        return stored

    def _rater(self, actor: Principal, user: str | None, trace: AskTrace, what: str) -> str:
        """Whose review row a rating (or its withdrawal) is: one rule for both calls, so an undo hits its own row."""
        rater = self._typed_person(actor.user if user is None or user == "default" else user, actor)
        if rater != actor.user:
            self._for_someone_else(actor, rater, trace, what)
        return rater

    def _for_someone_else(self, actor: Principal, owner: str, trace: AskTrace, what: str) -> None:
        """Refuse a rating of another person's unless the actor may act on everyone's; one audit row either way."""
        target = f"{owner} 的对话 {trace.conversation or '（无）'} 第 {trace.turn} 轮"
        try:
            require_owner(actor, owner, "feedback.give")
        except PermissionDenied as exc:
            self._audit(actor, "refused", f"feedback.give {target}", "refused", str(exc))
            raise
        self._audit(actor, "feedback.give", target, "ok", what)
