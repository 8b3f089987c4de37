"""Checksums and shapes that tell an identifier from a number that merely looks like one.

Pure functions for `pii`: a bank card carries a Luhn digit, a mainland ID a real birth date and a MOD 11-2
check character; random digit runs (amounts, 文号) mostly carry neither.
"""

from __future__ import annotations

from calendar import monthrange

FULLWIDTH_FOLD = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK_CHARS = "10X98765432"
_ID_MIN_YEAR = 1900  # bounds rather than today() keep redaction a pure function
_ID_MAX_YEAR = 2099


def luhn_valid(digits: str) -> bool:
    """Luhn checksum: bank card numbers carry one, random digit runs mostly don't."""
    doubled = (0, 2, 4, 6, 8, 1, 3, 5, 7, 9)  # 2d, minus 9 when above 9
    return bool(digits) and digits.isdecimal() and sum(
        doubled[int(c)] if i % 2 else int(c) for i, c in enumerate(reversed(digits))) % 10 == 0


def birth_date_valid(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= monthrange(year, month)[1]


def id_card_valid(number: str) -> bool:
    """18-char mainland ID with a real birth date and a correct MOD 11-2 check char."""
    number = number.translate(FULLWIDTH_FOLD)
    body, check = number[:17], number[17:].upper()
    if len(number) != 18 or not body.isdecimal() or not (check.isdecimal() or check == "X"):
        return False
    year, month, day = int(body[6:10]), int(body[10:12]), int(body[12:14])
    if not _ID_MIN_YEAR <= year <= _ID_MAX_YEAR or not birth_date_valid(year, month, day):
        return False
    weighted = sum(int(char) * weight for char, weight in zip(body, _ID_WEIGHTS, strict=True))
    return check == _ID_CHECK_CHARS[weighted % 11]
