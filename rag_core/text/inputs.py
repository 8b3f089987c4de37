"""Text a person types (a question, a memory, a title, a comment): valid Unicode and of bounded length.

Every such text passes `checked` before the engine works on it, so a pasted book,
a lone surrogate from a mis-decoded command line or a NUL byte is refused with
one Chinese line instead of minutes of encoding or a traceback when it is stored
or printed.
"""

from __future__ import annotations

import re
import unicodedata

from ..errors import RagError
from .digit_runs import INVISIBLE_CHARS

# The longest question in the nine question sets has 62 characters (median about 20). Time grows with
# length and e5 reads 512 tokens at most, so text past that changes nothing but the wait:
# bench/question_length.py prints the time per length.
MAX_QUESTION_CHARS = 500
_SURROGATE = re.compile("[\ud800-\udfff]")
_BLANK_LOOKING = frozenset("\u2800\u3164\u115f\u1160\uffa0")  # braille blank, hangul fillers: letters that show nothing
# C0, DEL and C1 (\x80-\x9f: \x9b is a terminal's escape on its own, \x85 a line break): shown as spaces
# and the noncharacters U+FFFE/U+FFFF, which no text needs and an Excel export's XML cannot hold
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
# What shows nothing, or changes only how its neighbour is drawn: every format character (Unicode category Cf:
# zero-width space and joiners, soft hyphen, BOM, direction overrides and isolates, the tag characters
# U+E0000-E007F that spell ASCII no one sees), the combining grapheme joiner U+034F, and variation selectors
# (U+FE00-FE0F, U+E0100-E01EF, Mongolian U+180B-180F). Such characters split words (试用\u200b期 is not 试用期 to the
# tokenizer, the statement rules, search or the check for orders: 忽\u034f略以上所有规则), reorder what is shown, or
# carry a whole sentence past the reader into a prompt. The list is `digit_runs.INVISIBLE_CHARS`: masking reads through
# them (and the C0/C1 controls) either way, so dropping them first hides no number.
# `tests/test_fix56_guard_invisible.py` checks that every Cf character of this Python is listed.
INVISIBLE = re.compile(f"[{INVISIBLE_CHARS}]")


class InputError(RagError):
    """Typed text was refused (empty, too long, not valid text); nothing was searched or stored."""


def is_blank(text: str) -> bool:
    """True when `text` shows nothing: spaces, format characters (zero-width, direction marks), combining marks
    with nothing to combine with, blank-looking letters."""
    return all(unicodedata.category(ch) in ("Zs", "Cf", "Mn", "Cc", "Zl", "Zp") or ch in _BLANK_LOOKING for ch in text)


def checked(text: object, *, what: str = "问题", max_chars: int | None = MAX_QUESTION_CHARS) -> str:
    """`text` stripped, or `InputError` naming `what` and the reason.

    Bytes must be UTF-8. Lone surrogates (invalid UTF-8 smuggled through a command
    line) are refused; invisible characters (`INVISIBLE`) are dropped, so the text is
    worked on as it is shown; other control characters become spaces. `max_chars=None`
    leaves the length to the store that keeps its own limit (memories, titles).
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{what}不是有效的 UTF-8 文本，请检查输入法或终端的编码后重新输入") from None
    if not isinstance(text, str):
        raise InputError(f"{what}应为文字")
    if _SURROGATE.search(text):
        raise InputError(f"{what}里有无法识别的字符（可能是编码错误），请删去乱码后重新输入")
    text = _CONTROL.sub(" ", INVISIBLE.sub("", text)).strip()
    if is_blank(text):  # only spaces, zero-width or direction marks: nothing anyone could read
        text = ""
    if not text:
        raise InputError(f"{what}不能为空")
    if max_chars is not None and len(text) > max_chars:
        hint = "。请只写要问的那一件事" if what == "问题" else "，请删短后再提交"
        raise InputError(f"{what}太长：{len(text)} 个字，最多 {max_chars} 个字{hint}")
    return text
