"""Whether a piece of text asks something, and whether it speaks of the person typing it.

One home for both notions: the statement splitter (what a turn tells about the
person), memory write-back (what is worth keeping) and recall (which questions
are about the asker) read them here instead of each keeping its own pattern.
"""

from __future__ import annotations

import re

# A question mark, a sentence-final question particle or a question word.
ASKING = re.compile(r"[?？]|吗|呢|是否|是不是|能不能|可不可以|什么|怎么|多少|几|哪|谁|如何|多久|多长|咋|啥|有没有")
# The person typing, at the start of a clause (after an opener such as 你好 or 对了).
_OPENER = r"(?:你好|您好|对了|另外|嗯|哦|其实)?[，, ]*"
FIRST_PERSON = re.compile(_OPENER + r"(?P<who>我们|咱们|我|本人|咱)")
_SPEAKS = re.compile(r"我|本人|咱")


def asks(text: str) -> bool:
    """The text asks something (a question mark, 吗/呢, or a question word)."""
    return bool(ASKING.search(text or ""))


def opens_with_asker(text: str) -> bool:
    """The clause is about the person typing it: it opens with 我 / 本人 / 咱 (after an opener)."""
    return bool(FIRST_PERSON.match((text or "").strip()))


def speaks_of_asker(text: str) -> bool:
    """The text mentions the person typing it anywhere (我出差住宿标准多少, 像我这样的)."""
    return bool(_SPEAKS.search(text or ""))


def third_person(clause: str) -> str:
    """我参加工作12年了 → 用户参加工作12年了 (memories are kept in the third person)."""
    text = (clause or "").strip().rstrip("，,。！!；;")
    match = FIRST_PERSON.match(text)
    if not match:  # a clause that goes on telling (下周要去广州出差): the person is its subject
        return "用户" + text.replace("我", "用户")
    plural = match["who"] in ("我们", "咱们")
    return ("用户所在的" if plural else "用户") + text[match.end():].replace("我", "用户")
