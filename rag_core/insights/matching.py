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
(辞职 / 辞退), are different questions (`agreement`); so are two sides of which one only is negated (可以报销 /
不能报销), that ask opposite extremes (最长 / 最短), or that ask different kinds of thing (怎么算 / 什么时候发).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text.asking import a_not_a
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


# Words that narrow a question to some occasion or people, besides vocabulary.QUALIFIERS (kept here, not in the
# shared vocabulary): a holiday or kind of day (春节加班费 is not 加班费), a role (经理 is not 员工; 员工 itself is
# everyone). A place is what jieba tags ns (上海, 北京).
OCCASIONS = frozenset(
    """春节 除夕 元旦 国庆 国庆节 清明 清明节 端午 端午节 中秋 中秋节 劳动节 五一 十一 妇女节 三八 节假日 法定节假日
    节日 休息日 工作日 双休日""".split())
ROLES = frozenset(
    """经理 副经理 总经理 主管 总监 高管 管理层 管理者 领导 部门负责人 负责人 董事 总裁 组长 班长 新员工 老员工 正式员工
    正式工 临时工 合同工 应届生 毕业生 销售 司机 保安 技术人员""".split())
# One side negated: a word that starts with a negation (不能, 不需要, 没休, 未休), 不 alone, 无需/无须/免; not the
# words that only begin with the character (不同, 不少, 不管) nor an A-not-A question (`a_not_a`: 要不要, 有没有)
_NEGATION = re.compile(r"^(?:不|没|未|无需|无须|免于?|禁止)")
_NOT_NEGATION = frozenset("不同 不仅 不管 不论 不久 不少 不错 不止 不断 不过 不如 不然 不等 不定期 没什么 未来 未婚".split())
_LIMIT = re.compile(r"不得?(?:超过|高于|低于|少于|多于|大于|小于|满)")  # 不超过多少 asks a limit (最多多少)
_CLAUSES = re.compile(r"[，,；;：:]")
# Opposite extremes: a question asking one asks another thing than one asking the other
_OPPOSITES = (("最长", "最短"), ("最多", "最少"), ("最高", "最低"), ("上限", "下限"), ("最早", "最晚"), ("最大", "最小"),
              ("至多", "至少"))
# What a question asks for, first found first: a time, a person or body, a place, how to apply, an amount or how one
# is counted, else (a question particle, 是否, A-not-A) whether. Two questions asking different kinds differ (试用期最短多久
# is not 试用期是3个月吗). A bare 怎么 asks none (怎么发放 may be how much, when or whether 一次性发放).
_HOW = r"(?:怎么|怎样|如何)"
_KINDS = (
    ("when", re.compile(r"什么时候|何时|哪天|哪一天|几号|几点|哪个月|哪一年|多久之?内|截止|多会儿")),
    ("who", re.compile(r"谁|哪个部门|哪个领导|哪位|找哪")),
    ("where", re.compile(r"哪里|哪儿|在哪|什么地方|什么地点")),
    ("apply", re.compile(_HOW + r"(?:申请|办理|办|请|提交|报名|报销|操作)|流程|手续|步骤")),
    ("amount", re.compile(r"多少|几|多久|多长|多大|多高|标准|比例|上限|下限|额度|" + _HOW + r"(?:算|计算|核算|计|折算)")),
    ("whether", re.compile(r"[吗么]？$|是否|有没有|能否|可否|([\u4e00-\u9fff])不\1")),
)


def asked_kind(text: str) -> str | None:
    """What `text` asks for (`_KINDS`), or None when it names no kind (怎么发放, 哪些费用可以报销)."""
    text = re.sub(r"[？?。！!\s]+$", "", text or "") + "？"
    return next((kind for kind, pattern in _KINDS if pattern.search(text)), None)


def negated(text: str) -> bool:
    """The question is asked of the negation (不能报销, 不需要审批, 没休完): a negation in its last clause, not in a
    modifier (未休完的年假), a limit (不超过多少, 不得低于) or an A-not-A ask (要不要, 有没有). A condition
    clause before it (未按时缴纳的，滞纳金怎么算; 可以不发钱，改发实物吗) leaves the question itself unnegated."""
    plain = _LIMIT.sub(" ", re.sub(r"有没有|是没是|[了过]没有?[？?]?$", " ", text or ""))
    words = [word for word, _ in tagged(a_not_a(_CLAUSES.split(plain.strip(" ，,；;：:？?。"))[-1])[0])]
    return any(_NEGATION.match(w) and w not in _NOT_NEGATION and "的" not in words[i + 1:]
               for i, w in enumerate(words))


def _opposed(a: str, b: str) -> bool:
    """One side asks an extreme the other asks the opposite of (最长 / 最短), not also saying it."""
    return any((x in a and y in b and x not in b and y not in a) or (y in a and x in b and y not in b and x not in a)
               for x, y in _OPPOSITES)


def _scoped(text: str) -> frozenset[str]:
    """The words of `text` that name an occasion, a role or a place (`OCCASIONS`, `ROLES`, jieba's ns)."""
    found = {w for w, tag in tagged(text) if tag == "ns" and len(w) > 1}
    return frozenset(found | {w for w in tokenize(text) if w in OCCASIONS or w in ROLES})


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
    scoped: frozenset[str] = frozenset()  # occasion, role and place words (`_scoped`): they narrow the scope
    kind: str | None = None  # what it asks for (`asked_kind`)
    negative: bool = False  # asked of the negation (`negated`)


def wording(text: str) -> Wording:
    found = default_thesaurus().expand(text)
    scoped = _scoped(text)
    base = frozenset(tokenize(text)) | scoped
    return Wording(base, frozenset(found.tokens) | frozenset(found.added) | base,
                   {k: frozenset(v) for k, v in found.groups.items()}, text.lower(),
                   {k: frozenset(v) for k, v in found.phrases.items()}, quantities(text), scoped,
                   asked_kind(text), negated(text))


def _narrows(token: str, own: Wording) -> bool:
    return narrows_scope(token) or token in own.scoped


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
    if _narrows(token, own):
        return _named_scope(token, own, other)
    if _said(token, own, other):
        return True
    return len(token) > 1 and any(len(t) > 1 and (token in t or t in token) for t in other.tokens)


def coverage(own: Wording, other: Wording) -> float:
    """Share of `own`'s content words that `other` names."""
    if not own.tokens:
        return 1.0
    return sum(_named(t, own, other) for t in own.tokens) / len(own.tokens)


def asks_otherwise(a: Wording, b: Wording) -> bool:
    """The two ask different things whatever else they share: different quantities (满1年 / 满10年), one side only
    negated (可以报销 / 不能报销), opposite extremes (最长 / 最短), both asking, different kinds of thing
    (`asked_kind`: 怎么算 / 什么时候发), or a scope word (a situation, benefit, occasion, role or place: 春节, 经理)
    one side names and the other does not."""
    if differ_in_quantity(a.amounts, b.amounts) or a.negative != b.negative or _opposed(a.text, b.text):
        return True
    if a.kind and b.kind and a.kind != b.kind:
        return True
    return any(_narrows(t, own) and not _named(t, own, other) for own, other in ((a, b), (b, a)) for t in own.tokens)


def agreement(a: Wording, b: Wording) -> float:
    """Both ways: the smaller share of one side's words the other names. 0 when they ask otherwise
    (`asks_otherwise`), or each side says what the other does not where that is a swap, not a rewording:
    a term the thesaurus knows on both sides (辞职/辞退, 离职/入职), in a question of `SHORT` words an act or thing
    on both sides (申请调休/取消调休), or, in any question, one thing put for another and nothing else changed
    (公积金缴纳比例/基数, 出差住宿/交通标准: review 382 #1; `_one_thing_for_another`)."""
    if asks_otherwise(a, b):
        return 0.0
    missing = [[t for t in own.tokens if not _named(t, own, other)] for own, other in ((a, b), (b, a))]
    if all(missing) and (all(any(t in w.phrases for t in m) for w, m in zip((a, b), missing))
                         or (min(len(a.tokens), len(b.tokens)) <= SHORT
                             and all(_acts_or_things(w.text) & set(m) for w, m in zip((a, b), missing)))
                         or _one_thing_for_another(a, b, missing)):
        return 0.0
    return min(coverage(a, b), coverage(b, a))


def _one_thing_for_another(a: Wording, b: Wording, missing: list[list[str]]) -> bool:
    """Each side leaves out one word of the other, both nouns with no character in common: the thing asked about was
    swapped (比例 for 基数). A rewording changes a verb (发放/算), a time word (当年/今年) or adds one (期间)."""
    if any(len(m) != 1 for m in missing):
        return False
    (left,), (right,) = missing
    nouns = [{word for word, tag in tagged(w.text) if tag.startswith("n")} for w in (a, b)]
    return left in nouns[0] and right in nouns[1] and not set(left) & set(right)


def _acts_or_things(text: str) -> set[str]:
    """The words jieba tags as verbs or nouns (申请, 调休; not 一共, 多少)."""
    return {word for word, tag in tagged(text) if tag[:1] in ("v", "n")}


def is_match(cosine: float, agree: float, *, cosine_floor: float = STANDARD_COSINE,
             agreement_floor: float = STANDARD_AGREEMENT) -> bool:
    """The rule: close in meaning and in words."""
    return cosine >= cosine_floor and agree >= agreement_floor
