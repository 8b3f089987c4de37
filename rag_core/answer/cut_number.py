"""Where a reply cut for its length may end: never inside a number or an e-mail address.

A model stopped for its length (finish_reason "length") or cut at the engine's cap may stop inside a number:
17 of an ID's 18 digits, or 10 of a mobile's 11, are too short for any masking rule and would be shown and
stored unmasked (review 51f 2); 上限 600 cut to 上限 60 reads as another amount. Like `prompt._cut_to`, the cut
goes before the run, as masking reads runs (`text.digit_runs`). An address cut short (wangwu.hr@starc) has no
domain for the e-mail rule to match, so it goes too (review 51h 1), and so does the whole of an amount written
with a comma, a decimal point or Chinese numerals (1.5 cut to 1., 一万五 that may be 一万五千 cut short: 51h 2).
"""

from __future__ import annotations

import re

from ..text.digit_runs import VIEW_FOLD, ZH_DIGIT_CHARS, number_runs
from ..text.numerals import CN_DIGITS, CN_NUMERAL
from ..text.pii import REDACTION_CATEGORIES, redact_text

# what a number still being written may hold at the end of a piece: digits (Arabic, full-width, Chinese),
# Chinese scales, separators of an amount (1,500 / 1.5), spaces and dashes as masking reads them (VIEW_FOLD)
_NUMBER_CHARS = frozenset("0123456789-,. " + ZH_DIGIT_CHARS + CN_NUMERAL + "亿")
# an amount at the end of a cut text, after VIEW_FOLD (，．are folded to ,.): Arabic digits with the separators
# and Chinese scales among them (1,5 / 1.5 / 1万5), or Chinese numerals alone (一万五)
_ARABIC_FIGURE = re.compile(rf"[0-9][0-9,.{CN_NUMERAL}亿]*\Z")
_CHINESE_FIGURE = re.compile(rf"[{CN_NUMERAL}亿]{{2,}}\Z")
# an e-mail address as pii's rule reads it, after VIEW_FOLD: an ASCII local part (else a Chinese one), an @,
# and a domain whose labels are each ASCII or Chinese, the last maybe not ended yet
_CJK = "\u4e00-\u9fff"
_LOCAL_ASCII = re.compile(r"[A-Za-z0-9_.%+-]+\Z")
_LOCAL_CHINESE = re.compile(rf"[{_CJK}]+\Z")
_LABEL = rf"(?:[A-Za-z0-9-]+|[0-9-]*[{_CJK}][0-9{_CJK}-]*)"
_DOMAIN_SO_FAR = re.compile(rf"(?:{_LABEL}[.。｡])*{_LABEL}?\Z")
_LONGEST_ADDRESS = 254
_PROBE_DOMAIN = "@example.com"  # ends a Chinese local part, for masking to say where it starts


def _chinese_local_start(run: str) -> int:
    """Where masking reads a Chinese local part to start in `run` (请发邮件至王小明 → 王小明): the run ended
    with an address is masked, and what masking keeps is not the address. All of it when masking reads none."""
    masked = redact_text(run + _PROBE_DOMAIN)
    kept = masked.removesuffix(REDACTION_CATEGORIES["email"])
    return len(kept) if kept != masked and run.startswith(kept) else 0


def _address_start(folded: str) -> int:
    """Where an e-mail address that `folded` may end inside starts (its local part, as masking reads it);
    `len(folded)` when it ends in none."""
    at = folded.rfind("@", max(0, len(folded) - _LONGEST_ADDRESS))
    if at < 0 or not _DOMAIN_SO_FAR.match(folded, at + 1):
        return len(folded)
    if local := _LOCAL_ASCII.search(folded, 0, at):
        return local.start()
    if local := _LOCAL_CHINESE.search(folded, 0, at):
        return local.start() + _chinese_local_start(local.group())
    return at


def number_in_progress(text: str) -> int:
    """Where a number or an e-mail address `text` may end inside starts (`len(text)` when it ends in neither): a
    stream holds that part back until the next piece shows it ended, or the reply was cut inside it
    (`without_cut_number`). A trailing ASCII word is held too: an @ may come next (wangwu.hr | @starc)."""
    folded = text.translate(VIEW_FOLD)
    start = len(text)
    while start and folded[start - 1] in _NUMBER_CHARS:  # a line break ends a number: masking reads none across one
        start -= 1
    local = _LOCAL_ASCII.search(folded)
    start = min(start, local.start() if local else start, _address_start(folded))
    while start and folded[start - 1].isspace():  # the space before it goes with it, as with a number
        start -= 1
    return start


def _figure_start(folded: str) -> int:
    """Where an amount `folded` ends in starts: Arabic digits with their separators and scales, or a run of 2+
    Chinese numerals that starts with a digit or 十 (一万五; not 王五, whose 五 is a name's, nor 千万)."""
    if arabic := _ARABIC_FIGURE.search(folded):
        return arabic.start()
    chinese = _CHINESE_FIGURE.search(folded)
    if chinese and (chinese.group()[0] in CN_DIGITS or chinese.group()[0] == "十"):
        return chinese.start()
    return len(folded)


def without_cut_number(text: str) -> str:
    """A reply cut for its length, less the number or e-mail address it was cut inside: 17 of an ID's 18
    digits, 10 of a mobile's 11, or an address without its domain are too short for any masking rule, and
    上限 600 cut to 上限 60 (or 1.5 to 1.) reads as another amount. Like `prompt._cut_to`, the cut goes before
    the run (Arabic or Chinese digits, as masking reads them). A number followed by a line break is finished
    (as `number_in_progress` treats it): only spaces and tabs after it are looked past."""
    folded = text.translate(VIEW_FOLD)
    end = len(folded.rstrip(" -\t"))  # never past a line break: 15000\n was written whole (review 52j #5)
    address = _address_start(folded[:end])
    if address < end:
        return text[:address].rstrip()
    for start, stop in number_runs(text[:end]):
        if stop == end:
            end = start
            break
    return _OPEN_CITATION.sub("", text[: _figure_start(folded[:end])]).rstrip()


# a citation the cut left open ([资, [资料, 【资料3、): it points at nothing and shows as a stray bracket
_OPEN_CITATION = re.compile(r"[\[【［]\s*(?:资\s*(?:料[\s0-9０-９一二三四五六七八九十、,，;；\-~～至和及资料]*)?)?\Z")
