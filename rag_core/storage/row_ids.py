"""What SQLite holds as an integer: a row id, turn number or limit a caller passed is checked against it here.

Sent as it is, 10**20 raised sqlite3's English OverflowError and None or 1.5 a TypeError or a silent match."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[+-]?[0-9]+")
SQLITE_MAX_INT = 2**63 - 1


def sqlite_int(value: object) -> int | None:
    """`value` as an integer SQLite can hold (an int, or the digits of one), else None (no row can have it)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        value = int(text) if _DIGITS.fullmatch(text) else None  # not "+-1", "１", "1_000"
    if not isinstance(value, int) or not -SQLITE_MAX_INT - 1 <= value <= SQLITE_MAX_INT:
        return None
    return value
