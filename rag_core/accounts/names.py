"""What an account name may be, and when two names are one.

Why a canonical key: the sidebar, the audit trail and every owner column show a name as text, and
Admin, ＡＤＭＩＮ and аdmin (Cyrillic а) all read as admin there. So names are compared by a key
(NFKC, casefold, look-alike letters mapped to one), for duplicates and for the reserved names alike.
Names are stored as typed; only new names are checked, so a store that already holds such a pair opens.
A name typed to log in or to manage an account means the one account it shares a key with (`AccountStore.resolve`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ..errors import AccountError

# names the engine itself acts or stores under: the desktop user (LOCAL_ADMIN), ask's default, sample indexing.
# An account so named would inherit the desktop user's conversations and memories. 本机用户 and 单点登录 are
# how the pages and the audit trail show the desktop user and a failed single sign-on, 系统 how they show the samples'
# import (stored as system; the audit page's filter reads 系统 as system): an account so named would pass for them.
RESERVED_NAMES = frozenset({"local", "default", "system", "本机用户", "单点登录", "系统", "系统（示例制度导入）"})
NAME_PATTERN = re.compile(r"^[\w.@-]{2,64}$")  # \w includes Chinese characters

# Capitals drawn like other Latin capitals than their lower case is (Greek Η, Ν, Υ read as H, N, Y; η, ν, υ as n, v,
# u): mapped before casefold, which would make them the lower-case letter.
_CAPITAL_LOOKALIKE = str.maketrans({"Η": "H", "Ν": "N", "Υ": "Y", "Μ": "M", "Ζ": "Z", "Ι": "I", "І": "I", "Ӏ": "I"})
# Capital I is drawn as l (AIice is Alice, Ian is lan) but is also i's capital (ADMIN is admin): two names read the
# same when their keys are equal with I read as i, or with I read as l (`_SHAPE_KEYS`).
_CAPITAL_I_AS_L = str.maketrans({"I": "l"})
# Cyrillic and Greek letters drawn like Latin ones, kana and Hangul drawn like Chinese characters (ニ 二, カ 力, ー 一),
# and the traditional / Japanese forms of the reserved names' characters (本機用戶 is 本机用户 on screen to any
# reader); applied after NFKC and casefold.
_LOOKALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
    "п": "n", "г": "r", "ԝ": "w", "ԛ": "q",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ϲ": "c", "ω": "w", "ı": "i",  # dotless ı: Latin Extended-A, so allowed, but it reads as i
    "ニ": "二", "カ": "力", "ロ": "口", "エ": "工", "ハ": "八", "ト": "卜", "タ": "夕",
    "ヒ": "匕", "ム": "厶", "ー": "一", "へ": "ヘ", "ㅁ": "口", "ㅡ": "一",
    "機": "机", "戶": "户", "戸": "户", "單": "单", "単": "单", "點": "点", "錄": "录", "録": "录", "統": "统",
})
# one shape each: l and 1 are one stroke (capital I too: `name_keys`); O and 0 one ring (AIice is
# Alice on screen, Ian is lan). Lower-case i keeps its dot: Neil and Nell, Elia and Ella are two names.
_ONE_SHAPE = str.maketrans({"1": "l", "0": "o"})
# letters drawn as nothing: the Hangul fillers are letters (Lo) to Unicode, so \w and the script check let them in
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
_FOREIGN_SCRIPTS = ("CYRILLIC", "GREEK")
# the Latin a name may use: Basic Latin, Latin-1 and Latin Extended-A (José, Müller, Łukasz, Strauß). Beyond them
# lie the small capitals, IPA and other letters drawn like plain ones (ꜱystem, ɑdmin, ʟocal): refusing them beside
# Latin is simpler and complete, where mapping each look-alike never is.
_LAST_COMMON_LATIN = 0x17F


def name_key(name: str, *, capital_i_as_l: bool = False) -> str:
    """A form two names are compared in (`name_keys`): equal keys are one name to a reader."""
    spelled = unicodedata.normalize("NFKC", name).translate(_CAPITAL_LOOKALIKE)
    if capital_i_as_l:
        spelled = spelled.translate(_CAPITAL_I_AS_L)
    return spelled.casefold().translate(_LOOKALIKE).translate(_ONE_SHAPE)


def name_keys(name: str) -> set[str]:
    """Both forms of `name`: two names that share one read the same (ADMIN and admin; AIice and Alice)."""
    return {name_key(name), name_key(name, capital_i_as_l=True)}


def _script(char: str) -> str:
    """The writing system of a letter: HAN, LATIN, KANA (hiragana and katakana), GREEK, CYRILLIC, HANGUL, …"""
    name = unicodedata.name(char, "")
    if name.startswith(("CJK", "IDEOGRAPHIC")):  # 々 〆 〇 are written with Chinese characters (佐々木, 王〇〇)
        return "HAN"
    word = name.split(" ")[0]
    return "KANA" if word in ("HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA") else word


def _scripts(name: str) -> set[str]:
    """The writing systems whose letters `name` uses."""
    return {_script(char) for char in unicodedata.normalize("NFKC", name) if char.isalpha()}


def invisible_char(name: str) -> str | None:
    """The first character of `name` drawn as nothing (format characters, the Hangul and other fillers), or None."""
    for char in name + unicodedata.normalize("NFKC", name):
        if (unicodedata.category(char) == "Cf" or char in _INVISIBLE_LETTERS
                or "FILLER" in unicodedata.name(char, "")):
            return char
    return None


def _uncommon_letter(name: str) -> str | None:
    """In a name with Latin letters, the first letter beyond `_LAST_COMMON_LATIN` that is not a Chinese character."""
    letters = [c for c in unicodedata.normalize("NFKC", name) if c.isalpha()]
    if not any(unicodedata.name(c, "").startswith("LATIN") for c in letters):
        return None
    return next((c for c in letters if ord(c) > _LAST_COMMON_LATIN and not unicodedata.name(c, "").startswith("CJK")
                 and not _marked_letter(c)), None)


def _marked_letter(char: str) -> bool:
    """A plain letter carrying a visible accent (ễ, ș, ǚ: Vietnamese, Romanian, pinyin names), which no reader takes
    for the plain letter — unlike the small capitals and IPA letters, which have no plain letter inside them."""
    parts = unicodedata.normalize("NFD", char)
    return len(parts) > 1 and parts[0].isascii() and parts[0].isalpha()


def is_reserved(name: str) -> bool:
    """True for the reserved names in any case, width or look-alike spelling."""
    return not name_keys(name).isdisjoint(_RESERVED_KEYS)


_RESERVED_KEYS = frozenset(key for n in RESERVED_NAMES for key in name_keys(n))


def check_name(name: str) -> str:
    """A name a new account may take (stripped); raises `AccountError` in Chinese.

    Refused: invisible characters (张三 and 张三 with a Hangul filler read the same), outside `NAME_PATTERN`,
    reserved in any spelling, mixing writing systems other than Chinese characters with Latin letters or with kana
    (山田さくら; no real name mixes others, a look-alike does: ΜΙΚΕ beside MIKE; 王ニ for 王二 is caught by the key),
    digits other than 0–9 (〇 is a Chinese character), or
    Latin beside letters beyond Latin Extended-A (ꜱystem, ɑdmin). Only new names: existing accounts still log in.
    """
    name = (name or "").strip()
    if (char := invisible_char(name)) is not None:
        raise AccountError(f"用户名里有看不见的字符（U+{ord(char):04X}，如零宽字符或韩文填充符），会让名字看起来和别人的一样："
                           "请删去后重新输入")
    if not NAME_PATTERN.match(name):
        raise AccountError("用户名须为 2–64 个字母、数字、汉字或 . _ @ -")
    if is_reserved(name):
        raise AccountError(f"用户名“{name}”是系统保留的（本机使用者、单点登录和系统任务用它记录操作、对话和记忆），请换一个")
    scripts = _scripts(name)
    if "LATIN" in scripts and scripts & set(_FOREIGN_SCRIPTS):
        raise AccountError(f"用户名“{name}”混用了拉丁字母和西里尔/希腊字母，看起来像别的名字：请只用一种字母")
    if len(scripts) > 1 and not (scripts <= {"HAN", "LATIN"} or scripts <= {"HAN", "KANA"}):
        raise AccountError(f"用户名“{name}”混用了几种文字（如拉丁字母和日文假名，或汉字和韩文、希腊字母），其中有的字和别的"
                           "字形近，看起来像别的名字：请只用一种文字，或只用汉字和拉丁字母、汉字和日文假名")
    if any(not c.isascii() and _script(c) != "HAN" for c in unicodedata.normalize("NFKC", name)
           if unicodedata.category(c).startswith("N")):
        raise AccountError(f"用户名“{name}”里有 0–9 以外的数字符号，容易被看成别的字母或数字：数字请用 0–9")
    if (letter := _uncommon_letter(name)) is not None:
        raise AccountError(f"用户名“{name}”里的“{letter}”是不常见的字母变体，看起来像普通字母，容易被当成别的名字："
                           "请只用常见字母（可带重音，如 José、Müller）、数字或汉字")
    return name


def lookalike(name: str, existing: Iterable[str]) -> str | None:
    """The existing name `name` reads the same as (case, width, look-alike letters), or None."""
    keys = name_keys(name)
    return next((other for other in existing if not keys.isdisjoint(name_keys(other))), None)


def refuse_lookalike(name: str, existing: Iterable[str]) -> None:
    """Raise `AccountError` when `name` reads as an existing account's name."""
    other = lookalike(name, existing)
    if other is not None:
        raise AccountError(f"用户名“{name}”与已有用户“{other}”太相似（只差大小写、全角半角或形近字母），"
                           "容易被当成同一个人：请换一个名字")
