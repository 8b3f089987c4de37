"""Names and conversation ids a caller types: refused when they carry personal data.

`add_user` refuses an account name that `redact_text` would change, because a name is kept and shown
everywhere. A memory owner, an asker named with `ask(user=…)` (the CLI's --user) and a conversation id
are kept and shown the same way (memory.sqlite3, the gaps page, conversations.sqlite3), so they meet the
same rule here before anything is stored. Masking them instead would merge two people under one masked
name or make a conversation unreachable by the id its owner typed.

The rule is for what is typed anew: the acting person's own name, a name already kept (an account made, or
memories stored, before names were restricted; there is no rename) and a conversation that already exists are
used as they are (`KnownNames`), or such a person could log in but no longer ask, see or purge their memories.
"""

from __future__ import annotations

import sqlite3
import unicodedata
import uuid

from ..errors import RagError
from ..text.inputs import InputError
from ..text.pii import redact_text
from ..types import Principal
from .core import FacadeCore

NAME_REFUSED = "用户名不能含手机号、邮箱、证件号、银行卡号或住址：请换一个名字（例如拼音或工号）"
NAME_CONTROL_REFUSED = "用户名不能含换行、制表符等控制字符：请只用字母、数字、汉字或 . _ @ -（与新建账户的规则相同）"
CONVERSATION_REFUSED = "对话编号不能含手机号、邮箱、证件号、银行卡号或住址：请换一个编号，或不填让系统自动生成"


def carries_personal_data(text: str) -> bool:
    """True when masking would change `text`: it holds a phone number, an e-mail, an ID or a card number."""
    return redact_text(text) != text


def checked_person(name: str) -> str:
    """`name` as given, or `InputError` when it carries personal data (nothing read, stored or audited raw) or a
    control character (a newline in a typed name printed a line of its own in the audit listing that read as
    another record; accounts never hold one: `users add` refuses it)."""
    if not isinstance(name, str):
        raise InputError("用户名应为文字")
    refusal = name_refusal(name)
    if refusal:
        raise InputError(refusal)
    return name


def name_refusal(name: str) -> str:
    """Why a typed `name` is refused ("" when it is not): one list of the rules, so the exemption for names
    already kept (`KnownNames._typed_person`) spares a name from all of them, not from some."""
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in name):
        return NAME_CONTROL_REFUSED
    if carries_personal_data(name):
        return NAME_REFUSED
    return ""


def checked_conversation(conversation: str | None) -> str | None:
    """A conversation id as given (None: no conversation), or `InputError` when it carries personal data."""
    if conversation is None:
        return None
    if not isinstance(conversation, str):
        raise InputError("对话编号应为文字")
    if carries_personal_data(conversation):
        raise InputError(CONVERSATION_REFUSED)
    return conversation


def fresh_conversation_id() -> str:
    """A new conversation id that `checked_conversation` accepts.

    About one 12-character hex id in 500 reads as a phone or landline number to `redact_text`
    (19461922995d, 026074783338): such a one is drawn again instead of being refused mid-chat.
    """
    while True:
        candidate = uuid.uuid4().hex[:12]
        if not carries_personal_data(candidate):
            return candidate


class KnownNames(FacadeCore):
    """Mixin of `Assistant`: the name rule applied to a typed name or id, sparing those that already exist."""

    def _typed_person(self, name: str, actor: Principal | None = None) -> str:
        """`name` as given when it is `actor`'s own or an existing account's or memory owner's, else `checked_person`:
        a name kept before a rule came (personal data, or a control character older CLIs took) must stay readable
        and erasable; only a name typed anew meets the rules."""
        if isinstance(name, str) and name_refusal(name) and (
                (actor is not None and name == actor.user) or self._known_person(name)):
            return name
        return checked_person(name)

    def _known_person(self, name: str) -> bool:
        """An account or a memory owner kept under `name` (only asked for a name the rules would refuse)."""
        try:
            if self.accounts.get(name) is not None:
                return True
            return name in self.memory.users()
        except (RagError, sqlite3.Error):  # a damaged store vouches for nobody: the rule applies
            return False

    def _typed_conversation(self, conversation: str | None) -> str | None:
        """`conversation` as given when it already exists (an id drawn before new ids were redrawn), else
        `checked_conversation`; whose it is is checked when its turns are read (`ForeignConversation`)."""
        if isinstance(conversation, str) and carries_personal_data(conversation):
            try:
                if self.conversations.get(conversation) is not None:
                    return conversation
            except (RagError, sqlite3.Error):  # a damaged store: treated as a new id
                pass
        return checked_conversation(conversation)
