"""Whether a phone word or a country code stands right before a number: the evidence a loose mobile split needs.

Split from pii.py (kept under its size limit). "请联系 13812 345 678" and "手机 13 8123 4567 8" are mobiles grouped
loosely; "15000 300 500" or "工号 13 2 1500 3000" are rows of values that merely add up to 11 digits starting 1[3-9].
Only a cue close before tells them apart.
"""

from __future__ import annotations

import re

PHONE_WORDS = r"手机|电话|联系|致电|拨打|来电|热线|号码|微信|Tel|TEL|tel|Phone|phone|Mobile"
# The word, then up to 8 characters with no digit, line break or sentence end (a value of its own, a new clause).
_CUE_BEFORE_RE = re.compile(rf"(?:{PHONE_WORDS})[^\d\r\n。；;！？!?\x00]{{0,8}}$")
_LOOKBACK = 16  # the longest word (6) plus the gap (8), with room


def phone_cue_before(text: str, start: int, placeholder: re.Pattern[str] | None = None) -> bool:
    """A phone word ends within 8 characters before `start` in `text` (a mask's placeholder, such as [手机号], is not
    one: `placeholder` finds them; a cut-off one at the window's edge holds no whole word)."""
    before = text[max(0, start - _LOOKBACK) : start]
    if placeholder is not None:
        before = placeholder.sub(lambda m: "\x00" * len(m.group()), before)
    return _CUE_BEFORE_RE.search(before) is not None
