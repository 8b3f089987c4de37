"""A model's streamed answer, shown masked as it comes.

The answer as a whole is masked before it is stored (`answering.compose_answer`), but
the chat shows the pieces while they arrive: a phone number the model copies from a
memory would be on screen, unmasked, until the answer ends. Pieces are therefore held
back until they end at a *settled* point (between two Chinese characters that are not
numerals, outside and not just before an e-mail address, not after a word a home address may
follow until a comma or full stop has closed it or no place or number has come for a while,
with a few characters seen past it:
no masked form spans such a point), and what is passed on is the masked text
of everything up to that point, less what was already shown. When masking more text
changes what was already shown (it never has, but a context rule could), nothing more
is streamed: the stored, masked answer replaces the streamed text when the turn ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text.digit_runs import ZH_DIGIT_CHARS
from ..text.numerals import CN_NUMERAL
from ..text.pii import redact_text
from ..text.pii_address import ADDRESS_CUE, PLACE_REACH

# Chinese numerals are not quiet: a phone written 一三八… (幺 for 1, 壹參陸 as on contracts) must not be cut in
# two. Every character masking reads as a digit (`ZH_DIGIT_CHARS`, one source), and the scales of an amount.
_NUMERALS = frozenset(ZH_DIGIT_CHARS + CN_NUMERAL + "拾佰仟萬")
# An e-mail address may be written in Chinese (王小明@公司.中国): no point after an @ is settled until a
# character no address holds (a comma, a space, a colon …) has closed it
_ADDRESS_ENDS = frozenset("，,；;！!？?：:、（）()《》“”\"' \t\n\u3000")
_AT = frozenset("@＠")
LOOKAHEAD = 8  # characters seen past a point before it is settled: longer than a Chinese name before an @
# Text is masked again from its start at each step (masking needs what came before: 电话号码是 …), so steps
# grow with the text: at least MIN_STEP new characters, or an eighth of what was shown. A 7,500-character
# answer streamed 4 characters a time is then masked 52 times, 72 ms in all, not 1,875 times.
MIN_STEP = 8
# A home address is masked from its road on (`pii`), but only once its numbers have come: 文三路幸福小 is no address
# yet. After a word an address may follow (masking's own trigger, `pii_address.ADDRESS_CUE`, so the two cannot drift:
# 住在, 家住, 住址, 身份证地址, 地址：, 寄到 …), no point is settled until a mark no address holds (，。；…) has ended it,
# or ADDRESS_QUIET characters passed without a place or number word (市, 路, 小区, 12, 三 …: an address goes on while
# they come) — as far as masking's place runs without one (`PLACE_REACH`: 北山路西子湖畔宝石山下香格里拉公寓3幢 is one
# place) — or ADDRESS_REACH characters passed in all.
_ADDRESS_STOPS = frozenset("，,；;。！!？?、（）()\n")  # not ：, which may follow the word (住址：…)
# A Chinese numeral is a place's number only before a digit or a numbered part (三号楼, 二零一室), not a count (十个工作日).
_PLACE_OR_NUMBER = re.compile(
    r"[省市区县旗镇乡城场路街道巷弄村苑院园寓厦段号栋幢座楼层室0-9０-９]|[一二三四五六七八九十百零〇两]+(?=[号栋幢座楼层室单元弄期区组0-9０-９]|$)")
ADDRESS_QUIET = PLACE_REACH
ADDRESS_REACH = 2 * PLACE_REACH + 12  # a place, its parts, a name and more parts


def _quiet(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" and char not in _NUMERALS


def settled_end(text: str, start: int = 0) -> int:
    """The last position after `start` that lies between two quiet characters, inside no e-mail address
    and not before one that may be starting (LOOKAHEAD characters after it are in, none an @ of the same
    run): 0 when there is none."""
    for end in range(len(text) - LOOKAHEAD, max(start, 0), -1):
        if (_quiet(text[end - 1]) and _quiet(text[end]) and not _in_address(text, end)
                and not _address_ahead(text, end) and not _home_address_open(text, end)):
            return end
    return 0


def _home_address_open(text: str, end: int) -> bool:
    """A word an address may follow stands within ADDRESS_REACH characters before `end`, no mark an address never
    holds has come since, and a place or number word came within ADDRESS_QUIET characters (or the word itself
    did): masking may still take the text up to `end` as part of one."""
    window = max(0, end - ADDRESS_REACH)
    cues = list(ADDRESS_CUE.finditer(text, window, end))
    if not cues:
        return False
    start = cues[-1].end()
    if any(char in _ADDRESS_STOPS for char in text[start:end]):
        return False
    places = _PLACE_OR_NUMBER.finditer(text, start, end + LOOKAHEAD)  # a numeral's next character may lie past `end`
    last = max((match.end() for match in places if match.end() <= end), default=start)
    return end - last <= ADDRESS_QUIET


def _address_ahead(text: str, end: int) -> bool:
    """An @ follows `end` before any character no address holds: a Chinese local part (王小明@…) is under way."""
    for char in text[end : end + LOOKAHEAD]:
        if char in _AT:
            return True
        if char in _ADDRESS_ENDS or char in "。．":  # a local part holds no full stop (a domain may: 公司。中国)
            return False
    return False


def _in_address(text: str, end: int) -> bool:
    """An @ stands between `end` and the last character before it that no address holds."""
    for char in reversed(text[max(0, end - 254) : end]):  # 254: the longest address there is
        if char in _AT:
            return True
        if char in _ADDRESS_ENDS:
            return False
    return False


class MaskedStream:
    """Wraps an `on_token` callback: what it passes on is always a prefix of the masked whole."""

    def __init__(self, on_token: Callable[[str], None], mask: Callable[[str], str] = redact_text) -> None:
        self._on_token = on_token
        self._mask = mask  # the answer's masker (`text.kept`: values its sources kept stay)
        self._raw = ""
        self._settled = 0  # how much of the raw text was masked and passed on
        self._shown = ""  # the masked text passed on so far
        self._stopped = False
        self._scanned = 0  # the text's length at the last look for a settled point: what came before is not looked at again

    def __call__(self, piece: str) -> None:
        self._raw += piece
        if len(self._raw) - LOOKAHEAD - self._settled < max(MIN_STEP, self._settled // 8):
            return
        end = settled_end(self._raw, max(self._settled, self._scanned - 1 - LOOKAHEAD))
        self._scanned = len(self._raw)
        if end > self._settled:
            self._settled = end
            self._show(self._mask(self._raw[:end]))

    def flush(self) -> None:
        """The stream ended: the rest, masked with the whole."""
        self._settled = len(self._raw)
        self._show(self._mask(self._raw))

    @property
    def shown(self) -> str:
        return self._shown

    def _show(self, masked: str) -> None:
        if self._stopped:
            return
        if not masked.startswith(self._shown):  # masking the longer text changed what is on screen
            self._stopped = True
            return
        if new := masked[len(self._shown):]:
            self._shown = masked
            self._on_token(new)
