"""Context words for personal-data masking: a weaker identifier-shaped value right after 身份证, 卡号, 手机 ….

Split from pii.py (kept under its size limit), which runs these after its pattern rules, and asks `joins` whether a
middle dot, a * or a spaced @ joins a number or an e-mail address in its view. A wrong check digit
after 身份证号 or a Luhn-invalid 卡号 is still someone's number when the word says what it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .checksums import id_card_valid, luhn_valid

Span = tuple[int, int]
_CJK = "\u4e00-\u9fff"

# Between a context word and its value: 号/号码/编号, 是/为, a colon, spaces, an opening bracket.
# A colon may end its line ("身份证号：" above the number).
# As after an address's label (`pii_address.LABEL_GAP`): a short （…） before the colon (身份证号（18位）：), a table's value
# word (项目：身份证号，内容：…), a form's 】 or a cell's |.
_COLON = r"(?:[(（][^()（）\n]{1,8}[)）])?[ \t]*+(?:[，,]?(?:内容|值|信息|填写内容)?[:：]|】|[|｜])"
_GAP = rf"[ \t]*+(?:号码|号|码|编号|ID|id)?[ \t]*+(?:是|为)?[ \t]*+(?:{_COLON}[ \t]*+\r?\n|{_COLON})?[ \t]*+[(（]?[ \t]*+"
_PHONE_SHAPE = r"(?:\+?86[ -]?)?\(?\d{2,4}\)?(?:[ .-]?\d{2,4}){1,4}(?![\d])"
_ALNUM_ID = r"(?=(?:[A-Za-z]*\d){4})[A-Za-z0-9]{6,12}(?![A-Za-z0-9])"
# Grouped (6228 4800 …), or read out digit by digit after its word (卡号：6 2 2 8 …, 6、2、2、8 …, 6-2-2-8 …; stop 65).
# Groups lined up by several spaces are not read (个人账户  800  1000  1200 is a row of amounts: reviews 338, 339).
# Each reading is atomic: tried once, as long as it goes (63 digits after 卡号 once took seconds of splitting, review 365).
_ACCOUNT = (r"(?:(?>\d{3,6}(?:[ .-]?\d{1,8}){1,7})|(?>\d(?: {1,3}\d){9,24})|(?>\d(?:、\d){9,24})|(?>\d(?:,\d){9,24})"
            r"|(?>\d(?:-\d){9,24}))(?!\d)")
# (context words, category or "phone", the identifier shape right after them)
_CONTEXT: tuple[tuple[str, str, str], ...] = (
    (r"身份证|身份号码|公民身份号码|证件号|证件号码", "id_card", r"\d(?:(?: {1,3}|[.-])?\d){16}(?: {1,3}|[.-])?[\dXx](?![\dA-Za-z])|\d{15}(?!\d)"),
    (r"护照", "passport", _ALNUM_ID),
    (r"通行证|回乡证|台胞证", "travel_permit", _ALNUM_ID),
    (r"银行卡|工资卡|银行账户|银行帐户|卡号|账号|帐号|账户|帐户", "bank_card", _ACCOUNT),
    # a bank's name or where pay goes (开户行：农业银行 6228 …, 工资发放至 6228 …): a card's 16-19 digits only
    (r"开户行|开户银行|[\u4e00-\u9fff]{2,6}银行|工资(?:发放|转账|打款)?(?:至|到)", "bank_card_long", _ACCOUNT),
    (r"微信", "wechat", r"wxid_[A-Za-z0-9_-]+|[A-Za-z][-_A-Za-z0-9]{5,19}(?![-_A-Za-z0-9])"),
    (r"QQ|qq|Qq", "qq", r"[1-9]\d{4,11}(?!\d)"),
    (r"电话|手机|联系方式|座机|传真|热线", "phone", _PHONE_SHAPE),
)
CONTEXT_WORDS = re.compile("|".join(words for words, _, _ in _CONTEXT))
_CONTEXT_RES = tuple(
    (re.compile(f"(?:{words}){_GAP}(?P<value>{shape})", re.ASCII), category) for words, category, shape in _CONTEXT
)


# A form laid out label above value (a PDF or scanned form, a web page's list): the label alone on its line, the value
# opening the next (QQ号⏎12345678; review 353). Not for accounts: a 个人账户 column heading stands above amounts.
_BELOW = ("id_card", "passport", "travel_permit", "wechat", "qq", "phone")
# A label without its colon (with one, `_GAP` reads across the break already), alone on its line, and may say whose
# (联系电话, 本人QQ号, 个人微信); the value is the next line's whole text but for a note in brackets or an extension: a
# heading 手机 or 微信 above 2024-01-01起, 2024.01.01 开始执行 or Office365 账号… is no form (reviews 358, 361), QQ号 above
# 52013145（常用） or 座机 above 62345678 转 8001 is (review 360). 52013145 人事部张三 under QQ stays: nothing tells it from
# a heading above a sentence.
# (blank runs possessive: 电话 + 5,000 spaces took 30 s, review 369)
_NOT_A_VALUE_AFTER = (r"(?=[ \t\u3000]*+(?:[(（【\[][^()（）【】\[\]\n]{0,20}[)）】\]]|(?:转|分机)[ \t]*+\d{1,6})?"
                      r"[ \t\u3000]*+[。；;，,！!]?[ \t\u3000]*+\r?$)")  # its sentence may end there (review 362)
_CONTEXT_BELOW_RES = tuple(
    (re.compile(rf"^[ \t\u3000]*+[{_CJK}]{{0,6}}(?:{words})[ \t\u3000]*+(?:号码|号|码)?[ \t\u3000]*+[:：]?[ \t\u3000]*+\r?\n"
                rf"[ \t\u3000]*+(?P<value>{shape}){_NOT_A_VALUE_AFTER}", re.ASCII | re.MULTILINE), category)
    for words, category, shape in _CONTEXT if category in _BELOW
)


def _context_category(category: str, value: str) -> str | None:
    """The category a context-raised value is masked as, or None when it is too short to identify."""
    digits = re.sub(r"\D", "", value)
    if category == "bank_card":
        return category if 10 <= len(digits) <= 25 else None
    if category == "bank_card_long":
        return "bank_card" if 16 <= len(digits) <= 19 else None
    if category == "phone":
        if not 7 <= len(digits) <= 13:
            return None
        national = digits[2:] if digits.startswith("86") and len(digits) > 11 else digits
        if re.fullmatch(r"[48]00\d{7}|0\d{2,3}12\d{3}", national):
            return None  # a company's 400/800 service line, a public 12xxx line after an area code (0571-12333): no one's
        return "mobile" if re.fullmatch(r"1[3-9]\d{9}", national) else "landline"
    return category


def context_matches(view: str, placeholders: re.Pattern[str]) -> Iterator[tuple[str, Span]]:
    """Identifier-shaped values right after a context word (a mask's placeholder, found by `placeholders`, is not
    context)."""
    view = placeholders.sub(lambda m: "\x00" * len(m.group()), view)
    for pattern, category in (*_CONTEXT_RES, *_CONTEXT_BELOW_RES):
        for match in pattern.finditer(view):
            resolved = _context_category(category, match.group("value"))
            if resolved is not None:
                yield resolved, match.span("value")


# ---------------------------------------------------------------- joins a context word allows (pii's view)
# A spaced @ after an e-mail or contact word (联系, 联系方式, 联系人), maybe a name between (联系人：李四 lisi @ hr.example.cn, (zhangsan @ …)).
_MAIL_WORD_BEFORE = re.compile(
    r"(?:邮箱|邮件|(?:e-?)?mail|发送?[至到]|联系(?:方式|人)?|[(（])(?:地址)?[ \t]*(?:是|为)?[ \t]*[:：]?[ \t]*"
    rf"(?:[{_CJK}]{{1,4}}[ \t]*)?[A-Za-z0-9_.%+-]{{2,}}$", re.I)
# A run of digit groups set apart by a middle dot, a * or spaces, and the word for a number just before it.
_DOT_STAR_RUN = re.compile(r"[\d*·・ ]*[\dXx]")
_RUN_REACH = 48
_UNIT_AFTER = re.compile(r" *[年月日时点分秒元万亿号条款项章节%％、·・]")
_NUMBER_WORD_BEFORE = re.compile(rf"(?:{CONTEXT_WORDS.pattern})[^\d\[\]。；;\n]{{0,13}}\Z")  # no other value between


def joins(folded: str, edit: re.Match[str]) -> bool:
    """May a dash or @ edit join what is on either side? (A middle dot, a * or a spaced @ says little alone.) A * or
    · joins a number its word names (身份证 110101·19900307·4514, 手机：138*0013*8000), a run that is an ID or a card by
    its checksum, a mobile's digits written with dots or markdown's balanced emphasis; not 180*2000*1200, 139·1500·2000 元."""
    start, end, kind, between = edit.start(), edit.end(), edit.lastgroup, edit.group().strip(" ")
    if kind == "at":
        return bool(_MAIL_WORD_BEFORE.search(folded, max(0, start - 80), start))
    if kind != "dash" or between[0] not in "*·・":  # a hyphen or a space joins as it always did
        return True
    run_start = start - len(re.search(r"[\d*·・ ]*\Z", folded[max(0, start - 40) : start]).group())
    run_start += len(folded[run_start:start]) - len(folded[run_start:start].lstrip(" *·・"))
    # An ID or a card with its separators is at most ~40 characters: read no further (a long run of 1*1*… is no one's
    # number, and reading it whole for each of its edits would be quadratic).
    run = _DOT_STAR_RUN.match(folded, run_start, run_start + _RUN_REACH)
    digits = re.sub(r"[^\dXx]", "", run.group() if run else "")
    if run and run.end() > run_start + _RUN_REACH - 8 and _DOT_STAR_RUN.match(folded, run.end(), run.end() + 8):
        digits = ""  # the window cut it: a greedy run read whole would have taken what follows; no one's number
    if (_NUMBER_WORD_BEFORE.search(folded, max(0, run_start - 15), run_start)
            or len(digits) == 18 and id_card_valid(digits)
            or 16 <= len(digits) <= 19 and digits[0] in "34569" and digits.isdigit() and luhn_valid(digits)):
        return True
    if between[0] != "*":  # a mobile's digits however grouped by dots (13800·138000), not an amount (139·1500·2000 元)
        return bool(re.fullmatch(r"1[3-9]\d{9}", digits)) and not _UNIT_AFTER.match(folded, run.end())
    stars = re.escape(between)  # emphasis around the digits before or after it: **138**0013, 138**0013**8000
    return len(between) > 1 and bool(re.search(rf"(?<!\*){stars}\d+$", folded[max(0, start - 24) : start])
                                      or re.match(rf"\d+{stars}(?!\*)", folded[end : end + 24]))
