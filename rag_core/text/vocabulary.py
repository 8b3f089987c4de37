"""Words that narrow what a rule is about: situations, people, and benefits.

Shared by search (a chunk lacking such a word of the question is weaker
evidence) and the offline answerer (it refuses to quote a clause that lacks
one): 加班餐补 is not answered by 出差期间的餐费补贴, 婚假 not by 年假.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources

from .numerals import names_quantity
from .tokenizer import is_word, tokenize, word_starts

# Situations and people that narrow what a rule applies to.
QUALIFIERS = frozenset(
    """
    加班 出差 差旅 试用期 试用 实习 实习生 兼职 非全日制 劳务派遣 派遣 外包 子女 孩子 小孩 儿子 女儿
    配偶 老婆 老公 丈夫 妻子 父母 家属 亲属 孕期 怀孕 哺乳期 退休 退休人员 外籍 夜班 值班 周末 海外 境外 国外
    产检 人流 流产 住院
    """.split()
)
# Endings of words that name a benefit, allowance, fee, ticket or kind of leave.
BENEFIT_SUFFIXES = ("假", "费", "金", "补", "贴", "助", "险", "奖", "票")
# Words with those endings that do not name one.
NOT_BENEFITS = frozenset(
    "危险 风险 保险 帮助 协助 援助 资助 资金 基金 现金 黄金 费用 经费 浪费 消费 请假 休假 放假 假期 度假 投票 股票".split()
)


def is_benefit(term: str) -> bool:
    """A word that names a benefit, allowance, fee or kind of leave (婚假, 餐补, 会费, 商业保险 …)."""
    return len(term) >= 2 and term.endswith(BENEFIT_SUFFIXES) and term not in NOT_BENEFITS


def narrows_scope(term: str) -> bool:
    """A situation, person or benefit: a clause that lacks it governs something else."""
    return term in QUALIFIERS or is_benefit(term)


# Endings of words for money paid towards a cost: 餐费, 餐补, 餐贴, 误餐补助 and 伙食补贴 name one
# kind of thing by their stem, whatever the ending. 奖/金/假/险/票 are other kinds (奖金 is not 补贴).
ALLOWANCE_SUFFIXES = ("补贴", "补助", "津贴", "费用", "费", "补", "贴")


def allowance_stem(term: str) -> str:
    """The stem of an allowance word (餐费 → 餐, 住房补贴 → 住房, 打车费 → 打车); "" for any other word."""
    if term in NOT_BENEFITS:
        return ""
    for suffix in ALLOWANCE_SUFFIXES:
        if term.endswith(suffix) and len(term) > len(suffix):
            return term[: -len(suffix)]
    return ""


def names_allowance(term: str, text: str) -> bool:
    """`text` names the allowance `term` by its stem with any allowance ending: 餐费 is named by 晚餐补助
    and 加班餐补, 房补 by 住房补贴. A stem of two or more characters must stand whole before the ending
    (打车费 is not named by 停车费); a one-character stem by its character (餐, 房)."""
    stem = allowance_stem(term)
    if not stem:
        return False
    key = stem[-2:]
    return any(key + suffix in text for suffix in ALLOWANCE_SUFFIXES)


def names(term: str, text: str, phrases: Mapping[str, Iterable[str]]) -> bool:
    """`text` names `term`: the word itself, one of its thesaurus phrases (打车 is named by 出租车), for an
    allowance its stem with another allowance ending (餐费 by 餐补), or for a quantity the same quantity in the
    other spelling (一年 by 1年内, 30天 by 三十天)."""
    return (term in text or any(phrase in text for phrase in phrases.get(term, ()))
            or names_allowance(term, text) or names_quantity(term, text))


def governs(term: str, text: str, phrases: Mapping[str, Iterable[str]]) -> bool:
    """Like `names`, but stricter for a kind of leave, where near words are different rights.

    Other kinds of leave (the words jieba finds ending in 假) are blanked first, so 产假 is not
    named by 陪产假. Then the leave is named by itself, by a leave or period word the thesaurus gives
    for it (婚丧假, 医疗期), or by another of its phrases together with a plain word for time off
    (员工本人结婚的，给予假期3天) — 申请陪产假须提供结婚证 does not name 婚假. In a clause that grants
    another kind of leave a person phrase (父母 for 探亲假) does not count: 父母去世的，给予丧假 does not
    name 探亲假.
    """
    if not term.endswith("假") or term in NOT_BENEFITS:
        return names(term, text, phrases)
    own = {term, *phrases.get(term, ())}
    plain = _without_other_leaves(own, text)
    if term in plain or any(p.endswith(("假", "期")) and p in plain for p in own):
        return True
    # with the other kinds blanked, a 假 left over is time off in general (假期, 休假, 放假) or the asked one;
    # in a clause granting another kind of leave, a person the leave is for (探亲假 → 父母) is not its
    # occasion: 父母去世的，给予丧假 does not name 探亲假, while 配偶生育的，给予假期15天 still names 陪产假
    people_count = plain == text
    return any(p in plain for p in own if people_count or p not in QUALIFIERS) and "假" in plain


def _without_other_leaves(own: set[str], text: str) -> str:
    """`text` with every kind of leave not in `own` blanked (陪产假 when 产假 is asked).

    A leave word that is an asked one qualified by a word of its own (带薪年假, 男方陪产假: 带薪 and 男方 are dictionary
    words) is the asked leave, not another: 员工每年享有带薪年假5天 was no answer to 年假有几天 (stop 65). One
    character fused onto it (陪产假, 晚婚假's 晚) makes another leave."""
    present = [p for p in own if p in text]  # 丧假 is a piece of 婚丧假, not another leave
    others = {
        w for w in tokenize(text)
        if len(w) >= 2 and w.endswith("假") and w not in NOT_BENEFITS and not any(w in p for p in present)
        and not any(w.endswith(p) and len(w) - len(p) >= 2 and is_word(w[: -len(p)]) for p in present)
    }
    for word in sorted(others, key=len, reverse=True):
        text = text.replace(word, " ")
    return text


@lru_cache(maxsize=1)
def standalone_subjects() -> tuple[tuple[str, ...], ...]:
    """Topics only a policy about them answers (班车, 健身房, 年会 …), each with its other names.

    Read from `resources/standalone_subjects.txt`: one topic per line.
    """
    text = resources.files(__package__).joinpath("resources/standalone_subjects.txt").read_text(encoding="utf-8")
    return tuple(tuple(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#"))


def subjects_named(question: str) -> list[tuple[str, tuple[str, ...]]]:
    """(the word used, every name of that topic) for each standalone topic the question names.

    A word counts where a word starts in jieba's cut: 每年会调薪吗 does not name 年会.
    """
    found, starts = [], None
    for group in standalone_subjects():
        used = [w for w in group if w in question]
        if used and starts is None:
            starts = word_starts(question)
        used = [w for w in used if any(question.startswith(w, i) for i in starts)]
        if used:
            found.append((max(used, key=len), group))
    return found
