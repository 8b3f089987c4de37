"""PII masking applied to policy text before chunking and embedding.

Why here: once a raw phone or ID number is embedded, it can leak through any
vector, chunk, prompt or log downstream, so it is replaced by a Chinese
placeholder at the very first step and never seen again.

Rules are applied in a fixed order (email, id_card, bank_card, mobile,
landline) so that a value masked by an earlier rule cannot be re-read by a
later one: an email local part made of digits is not a phone, and a valid ID
number is not a bank card. Every digit pattern is anchored with digit
lookarounds, so nothing is matched inside a longer digit run (order numbers,
amounts, timestamps stay untouched). Full-width forms ("１３８…", "＠") are
matched like their ASCII counterparts. The rules are re-run until nothing
changes, so output is stable under a second redaction even where masking one
value exposes the boundary of another ("…002X4111…").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from itertools import chain

# Key -> placeholder. Insertion order is the application order (see module doc).
REDACTION_CATEGORIES: dict[str, str] = {
    "email": "[邮箱]",
    "id_card": "[身份证号]",
    "bank_card": "[银行卡号]",
    "mobile": "[手机号]",
    "landline": "[座机号]",
}

# ISO 7064 MOD 11-2 (GB 11643-1999): weights for the first 17 digits and the
# check character indexed by the weighted sum mod 11.
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK_CHARS = "10X98765432"
# Plausible birth years for a living ID holder; bounds rather than today()
# keep redaction a pure function.
_ID_MIN_YEAR = 1900
_ID_MAX_YEAR = 2099

# ASCII only (re.ASCII makes \w = [A-Za-z0-9_]) so adjacent Chinese text is
# never swallowed; the lookbehind lets a match start only where a local-part run
# starts, which keeps the scan linear on long ASCII strings without an '@'.
_EMAIL_RE = re.compile(r"(?<![\w.%+-])[\w.%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}", re.ASCII)

# 18 chars, optionally grouped 6-8-4 by single spaces (region, birth date, sequence+check).
_ID_CARD_RE = re.compile(r"(?<!\d)(\d{6})( ?)(\d{8})\2(\d{3}[\dXx])(?!\d)", re.ASCII)

# 16-19 digits: contiguous, or groups of 4 with one consistent separator and a
# 1-3 digit tail group. The tail is captured so a bad tail can be split off.
_BANK_CARD_RE = re.compile(r"(?<!\d)(\d{4}([ -]?)\d{4}\2\d{4}\2\d{4})(?:\2(\d{1,3}))?(?!\d)", re.ASCII)

# Mainland mobile, optional +86/0086 prefix, optional 3-4-4 grouping with one
# consistent separator. "+" itself marks a token start, so "+86" needs no
# digit lookbehind ("…5678+86138…" holds two numbers).
_MOBILE_RE = re.compile(r"(?:\+86[ -]?|(?<!\d)(?:0086[ -]?)?)1[3-9]\d([ -]?)\d{4}\1\d{4}(?!\d)", re.ASCII)

# Area code 0 + [1-9] + 1-2 digits ("00" is an international prefix, not an
# area code), optional "(area)" form, 7-8 digit local number, optional extension.
_LANDLINE_RE = re.compile(
    r"(?<!\d)(?:\(0[1-9]\d{1,2}\) ?|0[1-9]\d{1,2}[- ]?)\d{7,8}"
    r"(?: ?(?:转|分机|ext\.?|x|#|-) ?\d{1,6})?(?!\d)",
    re.ASCII,
)

_SEPARATORS_RE = re.compile(r"[ -]")

# Full-width ASCII (U+FF01-FF5E) and the ideographic space fold to ASCII. The
# fold keeps string length, so match positions in the folded text index the
# original text and only matched spans change.
_FULLWIDTH_FOLD = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


@dataclass
class RedactionResult:
    """Masked text plus how many values of each category were replaced.

    Counts let ingestion log "3 phone numbers masked" without logging values.
    """

    text: str
    counts: dict[str, int]

    @property
    def total(self) -> int:
        """All masked values, for a single "was anything masked" check."""
        return sum(self.counts.values())


def luhn_valid(digits: str) -> bool:
    """Luhn checksum: bank card numbers carry one, random digit runs mostly don't."""
    if not digits or not digits.isdecimal():
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def id_card_valid(number: str) -> bool:
    """18-char mainland ID with a real birth date and a correct MOD 11-2 check char.

    Both checks are required so that arbitrary 18-digit numbers (order ids,
    timestamps) are not masked as identity numbers.
    """
    number = number.translate(_FULLWIDTH_FOLD)
    if len(number) != 18:
        return False
    body, check = number[:17], number[17].upper()
    if not body.isdecimal() or not (check.isdecimal() or check == "X"):
        return False
    year, month, day = int(body[6:10]), int(body[10:12]), int(body[12:14])
    if not _ID_MIN_YEAR <= year <= _ID_MAX_YEAR:
        return False
    try:
        date(year, month, day)
    except ValueError:
        return False
    weighted = sum(int(char) * weight for char, weight in zip(body, _ID_WEIGHTS, strict=True))
    return check == _ID_CHECK_CHARS[weighted % 11]


# A rule decides per match: accept it (True) or keep the text as is (False).
_Decide = Callable[[re.Match[str]], bool]


def _accept(match: re.Match[str]) -> bool:
    return True


def _is_id_card(match: re.Match[str]) -> bool:
    return id_card_valid(match.group(1) + match.group(3) + match.group(4))


def _is_bank_card(match: re.Match[str]) -> bool:
    return luhn_valid(_SEPARATORS_RE.sub("", match.group(1)) + (match.group(3) or ""))


def _is_card_with_loose_tail(match: re.Match[str]) -> bool:
    """A valid 16-digit card followed by a short separate group ("dddd dddd dddd dddd 12").

    Only for grouped text: splitting a contiguous run would mask part of a
    longer number.
    """
    separator, tail = match.group(2), match.group(3)
    return bool(separator and tail) and luhn_valid(_SEPARATORS_RE.sub("", match.group(1)))


_RULES: tuple[tuple[str, re.Pattern[str], _Decide], ...] = (
    ("email", _EMAIL_RE, _accept),
    ("id_card", _ID_CARD_RE, _is_id_card),
    ("bank_card", _BANK_CARD_RE, _is_bank_card),
    ("mobile", _MOBILE_RE, _accept),
    ("landline", _LANDLINE_RE, _accept),
)


def _private_use_chars(text: str) -> Iterator[str]:
    """Stand-ins for held-back values: never digits, never already in the input."""
    ranges = (range(0xE000, 0xF900), range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))
    return (char for char in map(chr, chain(*ranges)) if char not in text)


# Replace one original span: returns the placeholder (or a stand-in).
_Mask = Callable[[str, str], str]


def _run_rule(text: str, category: str, pattern: re.Pattern[str], decide: _Decide, mask: _Mask) -> str:
    """Apply one rule, matching on the full-width-folded text."""
    folded = text.translate(_FULLWIDTH_FOLD)
    parts: list[str] = []
    position = 0
    for match in pattern.finditer(folded):
        start, end = match.span()
        if decide(match):
            replacement = mask(category, text[start:end])
        elif category == "bank_card" and _is_card_with_loose_tail(match):
            head_end = match.end(1)
            replacement = mask(category, text[start:head_end]) + text[head_end:end]
        else:
            continue
        parts += [text[position:start], replacement]
        position = end
    parts.append(text[position:])
    return "".join(parts)


def redact(text: str, disabled: frozenset[str] | set[str] = frozenset()) -> RedactionResult:
    """Mask every enabled PII category in ``text``.

    ``disabled`` leaves the named categories untouched (e.g. HR-internal files
    where employee phone numbers are the content). Their values are still
    claimed in rule order (as stand-in chars, restored at the end), so a
    disabled email's digit local part is not then masked as a phone, nor a
    disabled ID as a bank card, and other categories are masked exactly as if
    nothing were disabled. Unknown names raise ValueError: a typo would
    otherwise silently disable nothing.
    """
    unknown = set(disabled) - REDACTION_CATEGORIES.keys()
    if unknown:
        raise ValueError(f"unknown redaction categories: {sorted(unknown)}")
    counts = dict.fromkeys(REDACTION_CATEGORIES, 0)
    held: dict[str, str] = {}  # stand-in char -> original value of a disabled category
    free_chars = _private_use_chars(text)

    def mask(category: str, original: str) -> str:
        if category in disabled:
            char = next(free_chars)
            held[char] = original
            return char
        counts[category] += 1
        return REDACTION_CATEGORIES[category]

    # Each change removes digits or an '@' for good, so this terminates.
    previous = None
    while text != previous:
        previous = text
        for category, pattern, decide in _RULES:
            text = _run_rule(text, category, pattern, decide, mask)
    if held:
        text = text.translate({ord(char): value for char, value in held.items()})
    return RedactionResult(text=text, counts=counts)
