"""What a password must be: long enough, and not one a guesser tries first.

Why a short list and not a dictionary: five wrong guesses lock an account, so what matters is
the handful of passwords tried first on every account (12345678, password, the user's own name),
not a large word list shipped with the app.
"""

from __future__ import annotations

import unicodedata

from ..errors import AccountError

MIN_PASSWORD = 8
MAX_PASSWORD = 256

# the commonest passwords of 8 or more characters in published leak lists (compared casefolded)
COMMON_PASSWORDS = frozenset({
    "password", "password1", "passw0rd", "p@ssw0rd", "qwertyui", "qwertyuiop", "qwerty123", "asdfghjk",
    "asdfghjkl", "zxcvbnm1", "1qaz2wsx", "abc12345", "abcd1234", "abcdefgh", "a1234567", "aa123456",
    "iloveyou", "sunshine", "princess", "football", "baseball", "whatever", "11111111", "88888888",
    "66666666", "00000000", "12341234", "123qweasd", "qweasdzxc", "admin123", "admin1234", "woaini1314",
    "1q2w3e4r", "1q2w3e4r5t", "letmein1", "welcome1", "changeme",
})
_MIN_NAME_IN_PASSWORD = 3  # a two-letter name (li, wu) is inside too many good passwords to refuse them


def check_password(password: str, name: str = "") -> str:
    """A password worth hashing for account `name`; raises `AccountError` with the reason in Chinese."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise AccountError(f"密码至少需要 {MIN_PASSWORD} 个字符")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"密码过长（最多 {MAX_PASSWORD} 个字符）")
    if not password.strip():
        raise AccountError("密码不能全是空格：请换一个包含字母或数字的密码")
    folded = unicodedata.normalize("NFKC", password).casefold()
    if name:
        own = unicodedata.normalize("NFKC", name.strip()).casefold()
        if own and (folded == own or (len(own) >= _MIN_NAME_IN_PASSWORD and own in folded)):
            raise AccountError("密码不能包含用户名：别人最先猜的就是它，请换一个")
    if folded.isdigit() or len(set(folded)) == 1:
        raise AccountError("密码不能全是数字或同一个字符：请加入字母或符号")
    if folded in COMMON_PASSWORDS:
        raise AccountError("这个密码太常见了（如 12345678、password、abc12345），别人最先猜的就是它：请换一个")
    return password
