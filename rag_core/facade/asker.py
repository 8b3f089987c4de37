"""Who asks a question, whose turn it is and whose reading searches it (`Assistant.ask`'s first step).

Kept apart from `assistant.py` (which stays under 400 lines); the facade's permission table
(`access.py`) and the name rule (`owner_names.py`) decide, this mixin only applies them.
"""

from __future__ import annotations

from ..errors import PermissionDenied
from ..text.inputs import InputError, checked
from ..types import Principal
from .access import issued_by_engine, require_owner
from .owner_names import KnownNames


class AskerActions(KnownNames):
    """Mixin of `Assistant`: resolving the asker of `ask`."""

    @staticmethod
    def question_too_long(text: str) -> str:
        """`ask`'s refusal of `text` for its length (问题太长…), or "": the chat page says it before a conversation is
        started for it, in the engine's own words. Empty or unreadable text is not this (`ask` says what it is)."""
        try:
            checked(text, max_chars=None)
        except InputError:
            return ""
        try:
            checked(text)
        except InputError as exc:
            return str(exc)
        return ""

    def _asker(self, actor: Principal | None, user: str | None,
               conversation: str | None = None) -> tuple[Principal, str, Principal]:
        """Who asks, whose turn it is (their memories, their conversation), and whose reading searches it.

        One's own; an administrator may name anyone, and the search then reads only what that person
        may read, since the turn is kept where they read it. Naming nobody ("") asks with no memories
        (the evaluations); only an administrator may keep such a turn in a conversation, which then
        belongs to nobody. Desktop mode has one person and one reading. A name or conversation id typed anew
        carrying personal data is refused before anything is read or kept (`owner_names`); one's own name, a
        name already kept and an existing conversation are not.
        """
        actor = self._acting(actor, "ask")
        if user is None or user == "default":
            user = actor.user
        self._typed_person(user, actor)
        self._typed_conversation(conversation)
        if not user or user == actor.user:
            return actor, user, actor
        try:
            require_owner(actor, user)
        except PermissionDenied as exc:
            self._audit(actor, "refused", f"ask as {user}", "refused", str(exc))
            raise
        if not self.team_mode:
            return actor, user, actor
        account = self.accounts.get(user)
        named = account is not None and not account.disabled
        return actor, user, issued_by_engine(Principal(user, account.role, account.audiences) if named else Principal(user))

    def _audit_asked_as(self, actor: Principal, user: str, conversation: str | None) -> None:
        """One row when an administrator asks as someone else: the turn reads that person's memories and earlier
        turns (SECURITY.md promises a row for that). Team mode reads them as that person, so the memory and
        conversation rows never fire; desktop mode writes this row too, so both modes leave the same trail."""
        if user and user != actor.user:
            self._audit(actor, "ask.as", user, "ok", f"对话 {conversation}" if conversation else "不在对话中")
