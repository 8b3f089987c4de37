"""Whether a piece of text asks something, and whether it speaks of the person typing it.

One home for both notions: the statement splitter (what a turn tells about the
person), memory write-back (what is worth keeping) and recall (which questions
are about the asker) read them here instead of each keeping its own pattern.
"""

from __future__ import annotations

import re

from .tokenizer import is_word, tagged

# A question mark, a sentence-final question particle or a question word.
ASKING = re.compile(r"[?？]|吗|呢|是否|是不是|能不能|可不可以|什么|怎么|多少|几|哪|谁|如何|多久|多长|咋|啥|有没有")
# The person typing, at the start of a clause (after an opener such as 你好 or 对了).
_OPENER = r"(?:你好|您好|对了|另外|嗯|哦|其实)?[，, ]*"
FIRST_PERSON = re.compile(_OPENER + r"(?P<who>我们|咱们|我|本人|咱)")
_SPEAKS = re.compile(r"我|本人|咱")
# A-not-A: a verb or adjective said twice around 不 asks yes or no (补不补, 算不算, 要不要贴, 包不包括, 可不可以).
_HAN = r"[\u4e00-\u9fff]"
_A_NOT_AB = re.compile(rf"(?P<a>(?!不){_HAN})不(?P=a)(?P<b>{_HAN})")  # 包不包括 → 包括, when 包括 is a word
_AB_NOT_AB = re.compile(rf"(?P<ab>(?!不){_HAN}{{2}})不(?P=ab)")  # 喜欢不喜欢 → 喜欢
_A_NOT_A = re.compile(rf"(?P<a>(?!不){_HAN})不(?P=a)")  # 补不补 → 补; 算不算加班 → 算加班


def asks(text: str) -> bool:
    """The text asks something (a question mark, 吗/呢, or a question word)."""
    return bool(ASKING.search(text or ""))


def a_not_a(text: str) -> tuple[str, bool]:
    """The text with each A-not-A question said once, as a word of its own (要不要贴发票 → " 要贴发票", 周六补不补 →
    "周六 补"), and whether it had one: its words are then the asked verb's, not 不要贴 or 补不补 (nor a word jieba
    would guess across the verb, 周六补), and it asks yes or no. The dictionary tells a two-character word (包括,
    可以) from a verb before the next word (算 + 加班); an A-not-A that modifies the verb after it asks nothing
    (时不时要加班: jieba tags it an adverb; 动不动就加班: 就 follows)."""
    found = False

    def once(match: re.Match[str]) -> str:
        nonlocal found
        said = match.group(0)
        if match.re is _A_NOT_A and (match.string[match.end():match.end() + 1] == "就" and said != "是不是"
                                     or tagged(said) == [(said, "d")]):
            return said
        found = True
        return " " + (match.group(0)[0] if match.re is _A_NOT_A else match.group("ab"))

    def shorten(match: re.Match[str]) -> str:
        nonlocal found
        if not is_word(match["a"] + match["b"]):
            return match.group(0)
        found = True
        return " " + match["a"] + match["b"]

    text = _AB_NOT_AB.sub(once, text or "")
    text = _A_NOT_AB.sub(shorten, text)
    return _A_NOT_A.sub(once, text), found


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
