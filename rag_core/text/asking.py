"""Whether a piece of text asks something, whether it speaks of the person typing it, and whom else it names.

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


# the commonest surnames: a name is one and a given name (王五, jieba: nr), or 小/老/阿 and one (小张)
_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
                      "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")


def is_a_name(word: str) -> bool:
    """A person's name as a whole word (王五, 李娜, 陈工, 李总, 小张, 老王, Wang Wu)."""
    word = (word or "").strip()
    if re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*|[小老阿][\u4e00-\u9fff]", word):
        return word[0] not in "小老阿" or word[1] in _SURNAMES
    return 2 <= len(word) <= 4 and word[0] in _SURNAMES and all(tag.startswith("nr") for _, tag in tagged(word))


def first_name(text: str) -> str:
    """The text's first word when it is someone's name (王五住院了 → 王五; 张三得了: jieba reads 张三得), else "".

    Stricter than `is_a_name`, as nothing but the word says it is a name: jieba's dictionary tags many common words nr
    (黄金周, 白班, 马拉松, 高新区, 丁克), so a word it lists is no name here, save a placeholder one (李四); a name
    jieba read with the next character (张三得) only when that character is a verb or particle (得, 在, 说), never a
    place's ending (余杭区)."""
    word = next((w for w, _ in tagged(text)), "")
    if not re.match(r"[\u4e00-\u9fff]", word):
        return ""
    if _a_bare_name(word):
        return word
    return word[:-1] if len(word) > 2 and _a_bare_name(word[:-1]) and tagged(word[-1])[0][1][:1] in "vpud" else ""


def _a_bare_name(word: str) -> bool:
    if not is_a_name(word) or len(word) > 3:
        return False
    return word[0] in "小老阿" or not is_word(word) or word[1:] in _PLACEHOLDERS


# given names of placeholder people (张三, 李四, 王五, 赵六)
_PLACEHOLDERS = frozenset("一二三四五六七八九十")


def third_person(clause: str) -> str:
    """我参加工作12年了 → 用户参加工作12年了 (memories are kept in the third person)."""
    text = (clause or "").strip().rstrip("，,。！!；;")
    match = FIRST_PERSON.match(text)
    if not match:  # a clause that goes on telling (下周要去广州出差): the person is its subject
        return "用户" + _the_person(text)
    plural = match["who"] in ("我们", "咱们")
    return ("用户所在的" if plural else "用户") + _the_person(text[match.end():])


def _the_person(text: str) -> str:
    """我 → 用户 inside a clause; 我们 and 咱们 are the person's unit or group (我们组的王五 → 用户所在的组的王五), never
    用户们."""
    return re.sub(r"我(?!们)", "用户", _OUR_UNIT.sub("用户所在的", text))


_OUR_UNIT = re.compile(r"(?:我们|咱们)(?=[部组团公单科中项班办])")
