"""When a question is the standard question: the match rule for standard answers.

Cosine alone cannot decide it: on e5, two different questions about one topic
(工作日加班费怎么算 / 法定节假日加班费是多少) reach 0.94–0.96 while true
paraphrases spread from 0.86 to 0.95 (docs/insights.md). So a match needs the
cosine above a calibrated floor *and* the words to agree: each side's content
words are named by the other (`_said`: the word, one of its thesaurus phrases,
or for a word that narrows no scope a word containing it), and no situation,
person or benefit (加班, 子女, 婚假 …) of one side is missing from the other.

A thesaurus group also holds related words a search looks for (婚假 with 丧假, 加班 with 餐费, 辞职 and 辞退
both with 解除劳动合同), so sharing one names nothing; a word inside a longer one (产假 in 陪产假) is another
right. Two sides stating different quantities (满1年 / 满10年), or each saying a term the other does not
(辞职 / 辞退), are different questions (`agreement`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text.numerals import CN_NUMERAL, chinese_numeral
from ..text.thesaurus import default_thesaurus
from ..text.tokenizer import tagged, tokenize
from ..text.vocabulary import names_allowance, narrows_scope

# Fitted by bench/calibrate_standard_answers.py (docs/insights.md): no eval question that a
# standard answer does not answer, nor the hand-judged pairs there, reaches both floors.
STANDARD_COSINE = 0.955
STANDARD_AGREEMENT = 0.5
SHORT = 2  # a question of this many content words is half changed by one swapped word

# a number and the unit it counts (满10年, 一个月, 8个小时, 2万元, 30天, 三千 with none); 日 is 天, 块 is 元. Not inside
# another number or after 第 (第十五天 is a day's place, not 5 天)
_QUANTITY = re.compile(rf"(?<![\d.第{CN_NUMERAL}])(\d+(?:\.\d+)?万?|[{CN_NUMERAL}]+)个?"
                       rf"(小时|分钟|[天日月年周元块次倍岁%％]|(?![\d{CN_NUMERAL}]))")
_UNIT = {"日": "天", "块": "元", "％": "%"}


def quantities(text: str) -> frozenset[tuple[float, str]]:
    """The quantities a question states, as (value, unit): 工作满一年 and 满1年 both state (1, 年); an amount with
    no unit (报销超过三千, 500) has unit "", read only when written in digits or with two numerals or more (not the 十
    of 十分)."""
    found = set()
    for number, unit in _QUANTITY.findall(text):
        if not unit and not number[0].isdigit() and len(number) < 2:
            continue
        if number[0].isdigit():
            value = float(number.rstrip("万")) * (10000 if number.endswith("万") else 1)
        else:
            value = chinese_numeral(number)
        if value:
            found.add((float(value), _UNIT.get(unit, unit)))
    return frozenset(found)


def differ_in_quantity(a: frozenset[tuple[float, str]], b: frozenset[tuple[float, str]]) -> bool:
    """Both sides count in one unit and state different values in it (满1年 / 满10年, 三千 / 三万). A quantity only one
    side states is no difference: 一年带薪年假 is 每年带薪年假, 一块休 is 一起休, 满一年 is 满12个月."""
    units = {unit for _, unit in a} & {unit for _, unit in b}
    return any({v for v, u in a if u == unit} != {v for v, u in b if u == unit} for unit in units)


@dataclass(frozen=True)
class Wording:
    """A question's content words and the thesaurus terms that count as each."""

    tokens: frozenset[str]
    terms: frozenset[str]  # tokens plus every thesaurus term added for them
    groups: dict[str, frozenset[str]]
    text: str = ""
    phrases: dict[str, frozenset[str]] = field(default_factory=dict)  # token -> thesaurus phrases naming the same
    amounts: frozenset[tuple[float, str]] = frozenset()


def wording(text: str) -> Wording:
    found = default_thesaurus().expand(text)
    base = frozenset(tokenize(text))
    return Wording(base, frozenset(found.tokens) | frozenset(found.added) | base,
                   {k: frozenset(v) for k, v in found.groups.items()}, text.lower(),
                   {k: frozenset(v) for k, v in found.phrases.items()}, quantities(text))


def _said(token: str, own: Wording, other: Wording) -> bool:
    """`other` says `token` exactly: the word, not only inside a longer scope word this side does not say (产假 in
    陪产假); one of its thesaurus phrases (婚假 by 婚丧假); a word of its own whose phrases hold it (爷爷奶奶 for
    祖父母); or, for an allowance, its stem with another ending (餐费 by 餐补, `names_allowance`). Related words a
    thesaurus group also searches for (婚假 with 丧假, 加班 with 餐费) do not count."""
    if token in other.tokens and not any(
            token in w and w != token and narrows_scope(w) and w not in own.tokens for w in other.tokens):
        return True
    if any(p in other.text for p in own.phrases.get(token, ())):
        return True
    if any(token in other.phrases.get(u, ()) for u in other.tokens):
        return True
    return names_allowance(token, other.text)


def _named_scope(token: str, own: Wording, other: Wording) -> bool:
    """A scope word is named exactly (`_said`), itself or as part of a longer word of this side (父母 in 祖父母)."""
    return _said(token, own, other) or any(
        token in w and w != token and _said(w, own, other) for w in own.tokens)


def _named(token: str, own: Wording, other: Wording) -> bool:
    if narrows_scope(token):
        return _named_scope(token, own, other)
    if _said(token, own, other):
        return True
    return len(token) > 1 and any(len(t) > 1 and (token in t or t in token) for t in other.tokens)


def coverage(own: Wording, other: Wording) -> float:
    """Share of `own`'s content words that `other` names."""
    if not own.tokens:
        return 1.0
    return sum(_named(t, own, other) for t in own.tokens) / len(own.tokens)


def agreement(a: Wording, b: Wording) -> float:
    """Both ways: the smaller share of one side's words the other names. 0 when a scope word is missing, the two
    state different quantities, or each side says what the other does not where that is a swap, not a rewording:
    a term the thesaurus knows on both sides (辞职/辞退, 离职/入职), or, in a question of `SHORT` words, an act or
    thing on both sides (申请调休/取消调休)."""
    if differ_in_quantity(a.amounts, b.amounts):
        return 0.0
    missing = []
    for own, other in ((a, b), (b, a)):
        unnamed = [t for t in own.tokens if not _named(t, own, other)]
        if any(narrows_scope(t) for t in unnamed):
            return 0.0
        missing.append(unnamed)
    if all(missing) and (all(any(t in w.phrases for t in m) for w, m in zip((a, b), missing))
                         or (min(len(a.tokens), len(b.tokens)) <= SHORT
                             and all(_acts_or_things(w.text) & set(m) for w, m in zip((a, b), missing)))):
        return 0.0
    return min(coverage(a, b), coverage(b, a))


def _acts_or_things(text: str) -> set[str]:
    """The words jieba tags as verbs or nouns (申请, 调休; not 一共, 多少)."""
    return {word for word, tag in tagged(text) if tag[:1] in ("v", "n")}


def is_match(cosine: float, agree: float, *, cosine_floor: float = STANDARD_COSINE,
             agreement_floor: float = STANDARD_AGREEMENT) -> bool:
    """The rule: close in meaning and in words."""
    return cosine >= cosine_floor and agree >= agreement_floor
