"""An account's single sign-on address: its check, the look-ups by address, changing it, and the tag of an unknown one.

Part of `store.AccountStore` (a mixin over its connection, lock and key). The address is the allow-list of single
sign-on (`Assistant.login_by_email`): one account per address whatever its case, an address that could be one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable
from contextlib import AbstractContextManager

from ..errors import AccountError
from ..types import Account
from .names import invisible_char

MAX_EMAIL = 254  # the longest address mail servers carry (RFC 5321 path limit)
EMAIL_PATTERN = re.compile(r"^[^@\s<>()\[\]{}\\,;:\"`*|!#$%^&=?/~]+@[\w-]+(?:\.[\w-]+)+$")  # no markdown, no spaces


def check_email(email: str) -> str:
    """A single sign-on address that could be one (name@domain.tld, at most `MAX_EMAIL`), or "" for none.

    Why: the address is shown on the 用户管理 page and matched at sign-on; a huge or markdown value is no address.
    """
    email = unicodedata.normalize("NFKC", email or "").strip()  # ｗａｎｇ@… typed in full-width: the provider sends wang@…
    if (char := invisible_char(email)) is not None:  # pasted in, it reads as another account's address (review 380)
        raise AccountError(f"邮箱里有看不见的字符（U+{ord(char):04X}，如零宽字符或软连字符），会让它看起来和别的地址一样，"
                           "单点登录也对不上：请删去后重新输入")
    if email and (len(email) > MAX_EMAIL or not EMAIL_PATTERN.match(email)):
        # the example is no address itself: an error line is masked, and a real one would read 形如 [邮箱]
        raise AccountError(f"邮箱格式不正确：请填写形如 名字@公司域名 的完整地址（@ 后面是公司的网址，例如 example.com；"
                           f"最多 {MAX_EMAIL} 个字符），或留空")
    return email


def _folded(email: str) -> str:
    """An address as one account per address compares it: NFKC, every script's capitals as small letters (Ä is ä).
    lower(), not casefold(): casefold also makes straße strasse, a different mailbox, and this is the sign-on allow-list."""
    return unicodedata.normalize("NFKC", email).strip().lower()


def _seen(email: str) -> str:
    """`_folded` without the characters drawn as nothing: an address stored before they were refused (wang\u200b@…)
    still signs on (review 383 #8), when no address matches exactly (`_holders`)."""
    return "".join(char for char in _folded(email) if unicodedata.category(char) != "Cf")


def taken(holders: list[str], email: str) -> AccountError:
    return AccountError(f"邮箱“{email}”已属于用户“{'”“'.join(holders)}”")


class EmailColumn:
    """The `email` column of the users table (`store.AccountStore` provides the connection, lock, key and writes)."""

    _db: sqlite3.Connection
    _lock: threading.Lock
    _secret: bytes
    _write: Callable[[], AbstractContextManager[None]]
    get: Callable[[str], Account | None]

    def names_with_email(self, email: str) -> list[str]:
        """The accounts holding `email`, whatever its case (more than one only in a store from before the rule)."""
        with self._lock:
            return self._holders(email)

    def _holders(self, email: str, but: str | None = None) -> list[str]:
        """Compared in Python (`_folded`): SQLite's lower() folds ASCII only, so Ärger@… and ärger@… were two accounts.
        A store from before still opens (no new column, no migration): such a pair now opens neither (`by_email`)."""
        rows = self._db.execute(
            "SELECT name, email FROM users WHERE email != '' AND name IS NOT ? ORDER BY name", (but,)).fetchall()
        exact = [name for name, held in rows if _folded(held) == _folded(email)]  # its owner first (review 387 #4)
        return exact or [name for name, held in rows if _seen(held) == _seen(email)]

    def by_email(self, email: str) -> Account | None:
        holders = self.names_with_email(email)
        return self.get(holders[0]) if len(holders) == 1 else None  # two accounts on one address: neither

    def set_email(self, name: str, email: str) -> Account:
        """`name`'s single sign-on address, checked as `add` checks it; "" clears it. Ends `name`'s sessions in the
        same write when the address changes: a sign-on the old address opened must not outlive it (a recycled or
        mistyped address)."""
        email = check_email(email)
        try:
            with self._write():  # the uniqueness check and the update in one write: no other process between them
                if email and (holders := self._holders(email, but=name)):
                    raise taken(holders, email)
                before = self._db.execute("SELECT email FROM users WHERE name = ?", (name,)).fetchone()
                changed = self._db.execute("UPDATE users SET email = ? WHERE name = ?", (email, name)).rowcount
                if before is None or (before[0] or "").casefold() != email.casefold():  # the same address saved
                    self._db.execute("DELETE FROM sessions WHERE user = ?", (name,))  # again ends no login (review 342)
        except sqlite3.IntegrityError as exc:  # the unique index, should the check have missed a form
            raise AccountError(f"邮箱“{email}”已属于另一个用户") from exc
        if not changed:
            raise AccountError(f"找不到用户：{name}")
        return self.get(name)  # type: ignore[return-value]

    def unknown_email(self, email: str) -> str:
        """How a single sign-on address that opens no account is recorded: a keyed tag, one per address whatever its
        case, never the address (personal data, which the masker may miss: zhang.san@corp). Keyed like
        `AccountStore.stranger`, so it cannot be reversed by hashing guesses."""
        typed = email.strip().casefold().encode("utf-8", "surrogatepass")
        digest = hmac.new(self._secret, b"sso-email\0" + typed, hashlib.sha256)
        return f"未知邮箱#{digest.hexdigest()[:8]}"
