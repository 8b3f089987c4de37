"""Personal-data masking: recognizers, context words and one pass to a fixed point.

In the lowest stage because every stored or shown text goes through it: policy bodies, headings, titles,
file names, doc ids, memories, questions and prompts.

Presidio's recognizer model, written for Chinese (Presidio's context is English-centric, needs spaCy):
- a *pattern recognizer* per shape (e-mail, 18-digit ID with MOD 11-2, bank card with Luhn, mobile,
  landline, passport, 港澳通行证, wxid) accepts a match when its validator (checksum, shape) says so;
- *context words* (身份证/证件号/护照/通行证/银行卡/卡号/账号/微信/QQ/电话/手机 …) raise a weaker
  identifier-shaped token right after them (a wrong check digit after 身份证号, a Luhn-invalid 卡号): pii_context.py;
- digits set apart one by one or by 、/，(1 3 8 0 0 1 3 8 0 0 0, 138、0013、8000): separated_digits.py.

Rules run in a fixed order (`RULES`) and the pass repeats until nothing changes (idempotent). Digit
lookarounds keep longer digit runs (amounts, 文号, dates) unmatched. Rules read a *view* (`_View`) with
full-width forms, other scripts' digits, Unicode spaces and dash look-alikes as ASCII, invisible and control
characters gone (a direction isolate inside a number hides nothing), a spaced dash, slash, middle dot or markdown
emphasis between digits as one hyphen; matches map back to the original. A joined view reads one
line break inside a number (a PDF wrap) as a space: such a match must cross the break and carry its own
evidence (an ID's check char, a card's Luhn digit, a mobile's shape, a context word).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .checksums import birth_date_valid, id_card_valid, luhn_valid
from .digit_runs import GROUP_ROW_RE, SKIPPED_CHARS, Span, mobile_pairs, private_use_chars, read_chinese_digits
from .digit_runs import VIEW_FOLD as _VIEW_FOLD
from .digit_runs import short_above_date as _date_below
from .mobile_cue import phone_cue_before
from .pii_address import ADDRESS_CUE, ADDRESS_RE, address
from .pii_context import CONTEXT_WORDS as CONTEXT_WORDS  # context words live there; tests and callers read them here
from .pii_context import context_matches, joins
from .pii_wraps import join_wrapped_cells
from .separated_digits import SEPARATED_RE, separated_card, separated_id, separated_mobile

# Key -> placeholder. Insertion order is the application order.
REDACTION_CATEGORIES: dict[str, str] = {
    "email": "[邮箱]",
    "id_card": "[身份证号]",
    "bank_card": "[银行卡号]",
    "mobile": "[手机号]",
    "landline": "[座机号]",
    "passport": "[护照号]",
    "travel_permit": "[通行证号]",
    "wechat": "[微信号]",
    "qq": "[QQ号]",
}
# 32+ lowercase hex characters with at least one letter, standing alone: uuid4().hex, sha256 — ids the
# app makes. Shorter runs stay subject to every rule (b3000000000000004 is a letter and a card number).
_HEX_ID_RE = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])[0-9a-f]{32,}(?![0-9A-Za-z])")
# A home address (`pii_address`) is no category a file may keep unmasked; counted only when found.
ADDRESS_PLACEHOLDER = "[住址]"
_PLACEHOLDER_OF = {**REDACTION_CATEGORIES, "address": ADDRESS_PLACEHOLDER}
PLACEHOLDERS = re.compile(  # what masked personal data reads as ([手机号], [邮箱], [住址] …)
    "|".join(re.escape(p) for p in _PLACEHOLDER_OF.values()))

_CJK = "\u4e00-\u9fff"
# E-mail: an ASCII or Chinese local part, ASCII or IDN domain (CJK labels, a few CJK TLDs, xn--); a label is
# ASCII or CJK, never both ("0.com一.aa" is an address followed by text, not the domain com一).
_EMAIL_RE = re.compile(
    rf"(?<![A-Za-z0-9_.%+\-{_CJK}])(?P<local>[A-Za-z0-9_.%+\-'{_CJK}]+)@"
    rf"(?:(?:[A-Za-z0-9\-]+|[0-9\-]*[{_CJK}][0-9\-{_CJK}]*)[.。｡])+(?:xn--[A-Za-z0-9-]+|[A-Za-z]{{2,}}|中国|中國|公司|网络|網絡|集团|香港|台湾|台灣)"
)
# Where a Chinese local part starts: after one of these or a word for a person (联系人张三@…), else its last three
# characters. Not after any 人: 人事部@公司.中国 is a department's own address, which stays (`_DEPARTMENT`).
_LOCAL_START_AFTER = set("至到给向箱件是为名系址：:")
_LOCAL_START_WORD = re.compile(r"(?:联系|收件|发件|负责|经办|申请|责任|本)人")
_DEPARTMENT = re.compile(rf"[{_CJK}]+(?:部|处|办公室|中心|委员会)")

# 18 chars grouped 6-8-4 by one consistent optional separator (space or hyphen).
_ID_CARD_RE = re.compile(r"(?<!\d)(\d{6})([ -]?)(\d{8})\2(\d{3}[\dXx])(?!\d)", re.ASCII)
# A number cut in two or three groups anywhere (a PDF line joined with a space; an ID also 4-4-4-4-2): an ID on its
# check char, a card (issuer prefix 3-6/9) on its Luhn digit, a mobile as 1[3-9] + 9 digits in two groups of 3+.
_ID_SPLIT_RE = re.compile(
    r"(?<![\d.-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}\1\d[\dXx]|\d+([ .-])\d+(?:\2\d+)?[Xx]?)(?![\dA-Za-z])", re.ASCII)
_TWO_GROUPS_RE = re.compile(r"(?<![\d.-])(\d{3,})[ .-](\d{3,})(?!\d|[ .-]\d)", re.ASCII)
# Old 15-digit ID: region (first digit 1-8), YYMMDD, sequence.
_ID15_RE = re.compile(r"(?<!\d)([1-8]\d{5})(\d{6})(\d{3})(?!\d)", re.ASCII)
# 16-19 digits: contiguous, groups of 4 (one separator, 1-3 digit tail), or 6 + 10-13.
_BANK_CARD_RE = re.compile(r"(?<!\d)(\d{4}([ -]?)\d{4}\2\d{4}\2\d{4})(?:\2(\d{1,3}))?(?!\d)", re.ASCII)
_BANK_CARD_6_RE = re.compile(r"(?<!\d)(\d{6})[ -](\d{10,13})(?!\d)", re.ASCII)
# Mainland mobile with optional +86/0086/(+86)/[+86], or a bare 86 (not 0.86) before a whole mobile, joined to
# 11 digits or spaced/dashed from a grouped one (86-138-1234-5678; 86150 3000 2000 is a salary table's row);
# 3-4-4 (or 3-8, 7-4) with any of space/dot/hyphen, 4-4-3 or 4-3-4.
_COUNTRY = r"(?:\(\+?(?:00)?86\)|[\[【]\+?(?:00)?86[\]】]|\+86|(?<!\d)0086)[ -]?"
_MOBILE_BODY = r"1[3-9]\d(?:[ .-]?\d{4}[ .-]?\d{4}|\d[ .-]\d{4}[ .-]\d{3}|\d[ .-]\d{3}[ .-]\d{4})"
_MOBILE_RE = re.compile(
    rf"(?:{_COUNTRY}|(?<![\d.])86(?:(?=1[3-9]\d{{9}}(?!\d))|[ -](?={_MOBILE_BODY}(?!\d)))|(?<!\d))"
    rf"(?:{_MOBILE_BODY}|\(1[3-9]\d\) ?\d{{4}}[ .-]?\d{{4}})(?!\d)",
    re.ASCII,
)
# Other splits in 3-4 groups (3-1-4-3 "138 1 2345 678", 3-3-5), one separator, not inside a longer grouped run, maybe
# after a bare 86 with the same separator. A loose split starts with the 3-digit prefix (or is 2-4-5 "13 8123 45678"):
# "工号 13 2 1500 3000" is a row of values that merely adds up to 11 digits.
_MOBILE_GROUPS_RE = re.compile(
    rf"(?:{_COUNTRY}|(?<![\d.])86(?P<pre>[ -])(?=1[3-9]\d?(?P=pre))|(?<![\d.-])(?<!\d ))(?P<number>(?:1[3-9]\d"
    rf"|1[3-9](?=[ .-]\d{{4}}[ .-]\d{{5}}(?![\d.-])))(?P<sep>[ .-])\d{{1,5}}(?:(?P=sep)\d{{1,5}}){{1,2}})(?!\d|[ .-]\d)",
    re.ASCII)
# Other loose splits (5-3-3 "13812 345 678", 2-2-4-3) only after a phone word or country code: `_mobile_loose`.
_MOBILE_LOOSE_RE = re.compile(
    rf"(?:(?P<cc>{_COUNTRY}|(?<![\d.])86(?P<pre>[ -])(?=\d{{1,5}}(?P=pre)))|(?<![\d.-])(?<!\d ))"
    rf"(?P<number>\d{{1,5}}(?P<sep>[ .-])\d{{1,5}}(?:(?P=sep)\d{{1,5}}){{1,3}})(?!\d|[ .-]\d)", re.ASCII)
# Area code (0 + [1-9] + 1-2 digits, or after +86 without the 0), local 7-8 digits (maybe 4-4), extension.
_LANDLINE_RE = re.compile(
    r"(?:(?:\+86|(?<!\d)0086)[ -]?\(?0?[1-9]\d{1,2}\)?[ -]?|(?<!\d)\(0[1-9]\d{1,2}\) ?|(?<!\d)0[1-9]\d{1,2}[- ]?)"
    r"(?:\d{7,8}|\d{3,4}[ -]\d{4})(?: ?(?:转|分机|ext\.?|x|#|-) ?\d{1,6})?(?!\d)",
    re.ASCII,
)
# Chinese passports E12345678 / EA1234567 / G12345678; 港澳通行证 C12345678 / CA1234567. Not a value a label calls
# another kind of number (工号 E12345678, 表单编号 G20261231) with no passport or permit word near (证件编号 E1…（护照）).
_OTHER_NUMBER_BEFORE = re.compile(r"(?:编号|工号|单号|序号|批号|型号|编码|代码|文号)[ \t]*(?:是|为)?[ \t]*[:：]?[ \t]*$")
_TRAVEL_WORD = re.compile(r"护照|证件|通行证|回乡证|台胞证")
_PASSPORT_RE = re.compile(r"(?<![A-Za-z0-9])(?:[EG]\d{8}|E[A-Z]\d{7})(?![A-Za-z0-9])", re.ASCII)
_PERMIT_RE = re.compile(r"(?<![A-Za-z0-9])C[0-9A-Z]\d{7}(?![A-Za-z0-9])", re.ASCII)
_WXID_RE = re.compile(r"(?<![A-Za-z0-9_])wxid_[A-Za-z0-9_-]{4,30}(?![A-Za-z0-9_])", re.ASCII)

_SEPARATORS_RE = re.compile(r"[ .()+-]")
# The fold rules read through, and runs of 7+ Chinese digits read as digits (手机一三八…): digit_runs.py, which
# a text cut before masking also asks where a number starts. Length-changing edits: invisible and control characters
# go (`SKIPPED_CHARS`: 138\u20660013 is 1380013); a spaced dash, a slash, an underscore, and a middle dot or * between
# digits where `pii_context.joins` allows (after the number's word, 身份证 110101·19900307·4514, 手机 138*0013*8000; a
# run an ID's or a card's checksum passes; a mobile's 3-4-4 dots; balanced emphasis 138**0013**8000 — not 180*2000*1200,
# 139·1500·2000 元): '-'; spaces around an @ between an ASCII local part of 2+ characters and a domain after an e-mail
# or contact word (邮箱 zhangsan @ corp.com, 联系人：李四 lisi @ …, not 请登录 OA @ oa.company.com): gone.
_SKIPPED = rf"[{SKIPPED_CHARS}]+"
_SPACED_AT = r"(?<=[A-Za-z0-9_%+-])(?P<at> {1,2}@ {0,2}| {0,2}@ {1,2})(?=[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b)"
_EDIT_RE = re.compile(
    rf"(?P<gone>{_SKIPPED})|(?<=\d)(?P<dash> {{0,2}}(?:[-/·・]|_{{1,3}}|\*{{1,3}}) {{0,2}})(?=\d)|{_SPACED_AT}")
# One line break between digits (or before an ID's final X), with the spaces around it, read as a space; or
# inside an e-mail domain that is not complete before the break (no dot yet, or ending in '.' or '-'): dropped.
_BREAK = r"(?<=\d) *\r?\n *(?=\d|[Xx](?![0-9A-Za-z]))"
# Word and WPS break a line after a hyphen: 138-⏎0013-8000 is the dashed number 138-0013-8000 (review 353)
_DASH_BREAK = r"(?<=\d) {0,2}[-‐–－][ \t\u3000]*\r?\n *(?=\d)"
_MAIL_BREAK = r"@(?:[A-Za-z0-9-]*|[A-Za-z0-9.-]*[.-]) *\r?\n *(?=[A-Za-z0-9.-])"
_JOIN_RE = re.compile(rf"{_EDIT_RE.pattern}|(?P<mail>{_MAIL_BREAK})|(?P<dbrk>{_DASH_BREAK})|(?P<brk>{_BREAK})")
# A number right before one of these is a date, an amount, an article or a list item, not a wrapped identifier.
_UNIT_AFTER = re.compile(r"[年月日时点分秒元万亿号条款项章节%％、]")


class _View:
    """The text as rules read it, and the way back from a view position to the original one."""

    def __init__(self, text: str, joined: bool = False):
        self.joined = joined
        folded = read_chinese_digits(text.translate(_VIEW_FOLD))
        parts: list[str] = []
        self._view_at, self._text_at = [0], [0]  # edit boundaries: view position -> original position
        position = 0
        for edit in (_JOIN_RE if joined else _EDIT_RE).finditer(folded):
            kind = edit.lastgroup
            put = edit.group().split("\n")[0].rstrip() if kind == "mail" else {"gone": "", "dash": "-", "dbrk": "-", "brk": " ", "at": "@"}[kind]
            if edit.group() == put or not joins(folded, edit):
                continue
            parts += [folded[position : edit.start()], put]
            self._view_at.append(self._view_at[-1] + (edit.start() - self._text_at[-1]) + len(put))
            self._text_at.append(position := edit.end())
        parts.append(folded[position:])
        self.text = "".join(parts)

    def _origin(self, at: int) -> int:
        i = bisect_right(self._view_at, at) - 1
        return self._text_at[i] + at - self._view_at[i]

    def origin(self, span: Span) -> Span:
        """The original characters of a view span (never a removed character at either end)."""
        return self._origin(span[0]), self._origin(span[1] - 1) + 1


@dataclass
class RedactionResult:
    """Masked text plus how many values of each category were replaced (counts, never values)."""
    text: str
    counts: dict[str, int]

    @property
    def total(self) -> int:
        """All masked values, for a single "was anything masked" check."""
        return sum(self.counts.values())


# A recognizer's validator: the span to mask (relative to the text), a row's spans, or None to keep the match.
_Decide = Callable[[re.Match[str]], Span | list[Span] | None]
_whole: _Decide = re.Match.span  # the match as it stands


def _email(match: re.Match[str]) -> Span | None:
    """An ASCII local part is the trailing ASCII run; a Chinese one starts after a label word."""
    local, start = match.group("local"), match.start()
    ascii_tail = re.search(r"[A-Za-z0-9_.%+-]+(?:'[A-Za-z0-9_.%+-]+)*$", local)  # mary.o'neil@ (review 391 #6)
    if ascii_tail:
        return start + ascii_tail.start(), match.end()
    cut = max([i + 1 for i, ch in enumerate(local) if ch in _LOCAL_START_AFTER]
              + [word.end() for word in _LOCAL_START_WORD.finditer(local)], default=0)
    if _DEPARTMENT.fullmatch(local, cut):
        return None  # an office's address, no one's
    if cut == 0 and len(local) > 4:
        cut = len(local) - 3
    return (start + cut, match.end()) if cut < len(local) else None


def _id_card(match: re.Match[str]) -> Span | None:
    return match.span() if id_card_valid(match.group(1) + match.group(3) + match.group(4)) else None


def _id_split(match: re.Match[str]) -> Span | None:
    return match.span() if id_card_valid(_SEPARATORS_RE.sub("", match.group())) else None


def _card_split(match: re.Match[str]) -> Span | None:
    digits = match.group(1) + match.group(2)
    return match.span() if 16 <= len(digits) <= 19 and digits[0] in "34569" and luhn_valid(digits) else None


def _mobile_split(match: re.Match[str]) -> Span | None:
    return match.span() if re.fullmatch(r"1[3-9]\d{9}", match.group(1) + match.group(2)) else None


def _mobile_groups(match: re.Match[str]) -> Span | None:
    """11 digits with a group of 4+ (an IP address 192.168.100.10 has none), not an amount (…600元)."""
    groups = re.findall(r"\d+", match.group("number"))
    unit = _UNIT_AFTER.match(match.string[match.end() :].lstrip(" "))
    return match.span() if sum(map(len, groups)) == 11 and max(map(len, groups)) >= 4 and not unit else None


def _mobile_loose(match: re.Match[str]) -> Span | None:
    """1[3-9] + 9 digits not led by the 3-digit prefix (`_mobile_groups`' own), after a country code or phone word."""
    groups = re.findall(r"\d+", match.group("number"))
    if len(groups[0]) == 3 or not re.match(r"1[3-9]", groups[0] + groups[1]):
        return None
    cue = match.group("cc") or phone_cue_before(match.string, match.start(), PLACEHOLDERS)
    return _mobile_groups(match) if cue else None


def _id15(match: re.Match[str]) -> Span | None:
    born = match.group(2)
    return match.span() if birth_date_valid(1900 + int(born[:2]), int(born[2:4]), int(born[4:])) else None


def _bank_card(match: re.Match[str]) -> Span | None:
    head = _SEPARATORS_RE.sub("", match.group(1))
    if luhn_valid(head + (match.group(3) or "")):
        return match.span()
    # A valid 16-digit card followed by a short separate group ("dddd dddd dddd dddd 12"),
    # only in grouped text: splitting a contiguous run would mask part of a longer number.
    if match.group(2) and match.group(3) and luhn_valid(head):
        return match.start(), match.end(1)
    return None


def _landline(match: re.Match[str]) -> Span | None:
    """Not a piece of a longer grouped number ("账号 1202 0210 0900 1234 567")."""
    text, (start, end) = match.string, match.span()
    inside = re.fullmatch(r"\d[ -]", text[max(0, start - 2) : start]) or re.match(r"[ -]\d", text[end : end + 2])
    return None if inside else match.span()


def _passport(match: re.Match[str]) -> Span | None:
    text, (start, end) = match.string, match.span()
    near = re.split(r"[\n。；;]", text[max(0, start - 15) : start])[-1] + text[end : end + 5]  # 护照，证件编号：…
    other = _OTHER_NUMBER_BEFORE.search(text, max(0, start - 12), start) and not _TRAVEL_WORD.search(near)
    return None if other else match.span()


def _bank_card_6(match: re.Match[str]) -> Span | None:
    return match.span() if luhn_valid(match.group(1) + match.group(2)) else None


RULES: tuple[tuple[str, re.Pattern[str], _Decide], ...] = (
    ("email", _EMAIL_RE, _email),
    ("id_card", _ID_CARD_RE, _id_card),
    ("id_card", _ID_SPLIT_RE, _id_split),
    ("id_card", SEPARATED_RE, separated_id),  # 1 1 0 1 0 1 …, digits set apart by one space, 、 or ，
    ("bank_card", _BANK_CARD_RE, _bank_card),
    ("bank_card", _BANK_CARD_6_RE, _bank_card_6),
    ("bank_card", _TWO_GROUPS_RE, _card_split),
    ("bank_card", SEPARATED_RE, separated_card),  # 6 2 2 2 0 2 …, a card read out digit by digit
    ("mobile", _MOBILE_RE, _whole),
    ("mobile", GROUP_ROW_RE, mobile_pairs),  # 13800 138000 13900 139000 …: each pair, in one pass
    ("mobile", _TWO_GROUPS_RE, _mobile_split),
    ("mobile", _MOBILE_GROUPS_RE, _mobile_groups),
    ("mobile", _MOBILE_LOOSE_RE, _mobile_loose),
    ("mobile", SEPARATED_RE, separated_mobile),  # 1 3 8 0 0 1 3 8 0 0 0, 138、0013、8000
    ("landline", _LANDLINE_RE, _landline),
    ("id_card", _ID15_RE, _id15),
    ("passport", _PASSPORT_RE, _passport),
    ("travel_permit", _PERMIT_RE, _passport),
    ("wechat", _WXID_RE, _whole),
    ("address", ADDRESS_RE, address),  # a home address: pii_address.py
)

# ---------------------------------------------------------------- the pass
_Mask = Callable[[str, str], str]  # (category, original span) -> placeholder or stand-in


def _replace(text: str, spans: list[tuple[str, Span]], mask: _Mask) -> str:
    parts: list[str] = []
    position = 0
    for category, (start, end) in sorted(spans, key=lambda item: item[1]):
        if start < position:
            continue  # overlaps an earlier span of the same step
        parts += [text[position:start], mask(category, text[start:end])]
        position = end
    parts.append(text[position:])
    return "".join(parts)


# Rules whose own evidence (check char, Luhn digit, mobile shape) may join a number across a line break.
# Not a loose grouping: split by a break, "13 5\n1234 678" is as likely a table's numbers.
_JOINABLE = tuple(rule for rule in RULES if rule[0] in ("email", "id_card", "bank_card", "mobile", "landline")
                  and rule[1] not in (_ID15_RE, _MOBILE_GROUPS_RE, _MOBILE_LOOSE_RE, SEPARATED_RE))
_BROKEN_RE = re.compile(r"\d(?: {0,2}[-‐–－][ \t\u3000]*)? *\r?\n *[\dXx]|@[A-Za-z0-9.-]* *\r?\n")


def _run_rule(text: str, found: Iterable[tuple[str, Span]], mask: _Mask, view: _View, context: bool = False) -> str:
    """Mask what a rule `found` in `view`; a joined view keeps only spans that cross a line break."""
    spans = []
    for category, span in found:
        start, end = view.origin(span)
        if view.joined and ("\n" not in text[start:end] or _UNIT_AFTER.match(text, end)):
            continue
        if view.joined and category == "bank_card" and not context and (re.sub(r"\D", "", text[start:end])[:1] not in "34569"
                                                                       or _date_below(text, start, end)):
            continue  # a card joined on its checksum alone: real issuer prefixes, no date below (60012347⏎20240101)
        if view.joined and category == "landline" and not context and not re.search(r"[-‐–－][ \t\u3000]*\r?\n", text[start:end]):
            continue  # a landline has no check digit: joined only across the dash a line broke after (0571-⏎8888…)
        spans.append((category, (start, end)))
    return _replace(text, spans, mask) if spans else text


def _one_pass(text: str, mask: _Mask, joined: bool) -> str:
    """Every rule, then the context words, over the plain view or a view joined across line breaks."""
    view = _View(text, joined)
    for category, pattern, decide in _JOINABLE if joined else RULES:
        found = [(category, span) for match in pattern.finditer(view.text) if (got := decide(match)) for span in
                 (got if isinstance(got, list) else [got])]
        if pattern in (_MOBILE_GROUPS_RE, _MOBILE_LOOSE_RE, SEPARATED_RE):  # never read across a tab (a table's cells)
            found = [(category, span) for category, span in found if "\t" not in text[slice(*view.origin(span))]]
        masked = _run_rule(text, found, mask, view)
        if masked != text:  # the next rule reads the text as masked so far
            text, view = masked, _View(masked, joined)
    return _run_rule(text, list(context_matches(view.text, PLACEHOLDERS)), mask, view, context=True)


def redact(text: str, disabled: frozenset[str] | set[str] = frozenset()) -> RedactionResult:
    """Mask every enabled category in ``text``.

    ``disabled`` leaves the named categories untouched (HR-internal files where
    phone numbers are the content). Their values are still claimed in rule order
    (as stand-in chars, restored at the end), so a disabled e-mail's digit local
    part is not then masked as a phone. Unknown names raise ValueError.
    """
    unknown = set(disabled) - REDACTION_CATEGORIES.keys()
    if unknown:
        raise ValueError(f"unknown redaction categories: {sorted(unknown)}")
    counts = dict.fromkeys(REDACTION_CATEGORIES, 0)
    held: dict[str, str] = {}
    free_chars = private_use_chars(text)

    def hold(original: str) -> str:
        char = next(free_chars)
        held[char] = original
        return char

    def mask(category: str, original: str) -> str:
        if category in disabled:
            return hold(original)
        counts[category] = counts.get(category, 0) + 1
        return _PLACEHOLDER_OF[category]

    # An opaque hex id (a memory id, a content hash) is nobody's number, whatever digit runs it holds:
    # 3873a05c0461430382f… is not a landline. Held aside like a disabled category's values.
    text = _HEX_ID_RE.sub(lambda m: hold(m.group()), text)
    text = join_wrapped_cells(text, mask, disabled)  # an ID or card a table cell wrapped, other cells between
    # Each change removes digits, letters or an '@' for good, so this terminates.
    previous = None
    while text != previous:
        previous = text
        # A number wrapped over two lines (the break read as a space: two groups); first, so that
        # "座机：0571-8888⏎6666" is not cut at the break by the context word's plain match.
        if _BROKEN_RE.search(text.translate(_VIEW_FOLD)):
            text = _one_pass(text, mask, True)
        text = _one_pass(text, mask, False)
    if held:
        text = text.translate({ord(char): value for char, value in held.items()})
    return RedactionResult(text=text, counts=counts)


def redact_text(text: str) -> str:
    """The masked text alone, every category on (memories, questions, prompts, names)."""
    return redact(text).text if text else text


def names_personal(label: str) -> bool:
    """Whether masking reads a value after this label as personal (住址, 手机, QQ, 身份证号 …): a table cell beside it
    is masked as its value (`documents.tables`); beside any other label, its reading is its own."""
    return bool(CONTEXT_WORDS.search(label) or ADDRESS_CUE.search(label))
