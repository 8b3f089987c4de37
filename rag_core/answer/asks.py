"""What a question asks for, and whether a sentence gives it: the sentence that does leads the answer.

A question asks for a number (几天, 多少钱: `subject.required_quantity`), a person or body
(谁批, 由谁支付), or a point in time (哪天, 什么时候); anything else asks for the rule itself.
The offline answerer quotes first the matching sentence that gives what was asked, so
这个需要谁审批 leads with the approval sentence and 多久调整一次 with 每两年至少调整一次,
not with the first sentence that happens to state some amount.
"""

from __future__ import annotations

import re

from ..text.tokenizer import tagged
from .subject import is_yes_no, polarity, required_quantity, ruling_clauses

_ASKS_WHO = re.compile(r"谁|哪个部门|哪个领导|找哪|哪里审批|哪里申请")
_GIVES_WHO = re.compile(
    r"批准|审批|审核|同意|签字|签批|核准|确认|负责人|上级|主管|经理|总监|人力资源|部门|单位|基金|公司"
    r"|由[^，,。；;]{1,16}(?:支付|承担|负担|发放|审批|批准|负责|办理|出具|缴纳|偿还)"
)
_ASKS_WHEN = re.compile(r"哪天|哪一天|什么时候|何时|几号|哪个月|从什么时候|多久之?内|截止")
_GIVES_WHEN = re.compile(
    r"\d+\s*(?:个)?(?:工作日|自然日|日|号|天|个月|月)|[一二三四五六七八九十两]+\s*(?:个)?(?:工作日|自然日|日|天|个月)"
    r"|之日|次日|当日|当天|当月|次月|月底|年底|期满|结束后|届满|以前|之前|以内|之内|起"
)


def asked_pattern(question: str) -> re.Pattern | None:
    """What a sentence must contain to give what `question` asks for (None: it asks for the rule itself)."""
    quantity = required_quantity(question)
    if quantity is not None:
        return quantity
    tail = re.sub(r"[？?。！!吗呢啊呀\s]+$", "", question)[-10:]
    if _ASKS_WHO.search(tail):
        return _GIVES_WHO
    if _ASKS_WHEN.search(question):
        return _GIVES_WHEN
    return None


def gives_asked(pattern: re.Pattern, sentence: str) -> bool:
    """The sentence gives what `asked_pattern` says was asked."""
    return bool(pattern.search(sentence))


def what_is_asked(typed: str, searched: str) -> str:
    """The text that says what a turn asks: the question as typed when it asks something of its own
    (没去的话能换成钱吗, 一个月能补几次, 哪天必须去公司), else the search question it became (那国庆节当天呢
    asks what the question before it asked).

    A follow-up glued to the last question carries that question's subject, which search needs; its
    asks (什么时候, 几天) and stated amounts (请两天假) are the last turn's, not this one's."""
    typed = (typed or "").strip()
    if not typed or typed == searched.strip():
        return searched
    own = required_quantity(typed) is not None or asked_pattern(typed) is not None or is_yes_no(typed)
    return typed if own else searched


# What a yes/no question turns on comes after its last modal or copula (能拆开休吗 → 拆开, 休; 算工伤吗 → 工伤)
_MODALS = frozenset("能 能够 可以 可 要 需要 会 算 有 得 用".split())
# what jieba glues before a modal (了能, 不能, 还要 are one token): the token is still the modal
_BEFORE_MODAL = "了不还也"
_GLUED_MODALS = ("还能", "能", "要", "可")  # jieba glues these on after (能领, 能报): the verb is what follows
# part-of-speech tags of words that carry no content: particles, pronouns, prepositions, localizers, adverbs,
# auxiliaries, punctuation, conjunctions, numerals, measure words, onomatopoeia; "e" (interjections) whole,
# since "eng" (a Latin word: iPad) is content
_NOT_CONTENT = tuple("yrpfduxcmqo")
_DIGITS = re.compile(r"\d")
_DIRECTIONS = frozenset("来去回出过上下起进")  # a direction after a verb (取出 + 来) is part of the act


def _is_modal(word: str) -> bool:
    return word.lstrip(_BEFORE_MODAL) in _MODALS


def _is_content(word: str, tag: str) -> bool:
    return bool(_DIGITS.search(word)) or not (tag.startswith(_NOT_CONTENT) or tag == "e" or _is_modal(word))


def asked_predicate(question: str) -> list[str]:
    """The words a yes/no question turns on: its content words after the last modal (能, 要, 算 …; 了能 and 不能
    count as one), a modal jieba glued on dropped (能领 → 领); when nothing follows it (写离职原因可以吗), the
    content words before it; without a modal, its last content word. A number the question states
    (能休15天吗) counts. Empty when the question names nothing (那可以吗)."""
    words = [(w, t) for w, t in tagged(question) if w.strip()]
    modals = [i for i, (w, _) in enumerate(words) if _is_modal(w)]
    if not modals:
        return [_unglued(w) for w, t in words if _is_content(w, t)][-1:]
    after = _without_complements([(w, t) for w, t in words[modals[-1] + 1 :] if _is_content(w, t)])
    start = modals[-2] + 1 if len(modals) > 1 else 0
    return after or [_unglued(w) for w, t in words[start : modals[-1]] if _is_content(w, t)]


def _without_complements(words: list[tuple[str, str]]) -> list[str]:
    """The words, a modal glued on dropped, without a direction after a verb (取出 + 来, 拿 + 回来): 取出来
    turns on 取出, not on 来."""
    kept: list[str] = []
    for i, (word, _tag) in enumerate(words):
        if i and words[i - 1][1].startswith("v") and set(word) <= _DIRECTIONS:
            continue
        kept.append(_unglued(word))
    return kept


def _unglued(word: str) -> str:
    modal = next((m for m in _GLUED_MODALS if word.startswith(m) and len(word) > len(m)), "")
    return word[len(modal) :]


def says_asked(question: str, sentence: str) -> bool:
    """`sentence` says what the yes/no `question` turns on: each predicate word, or its first character
    (裁掉 by 裁减, 坐飞机 by 乘坐飞机; a number only as itself), is in it. Only then may its 可以 / 不可以 answer
    the question; a question that names nothing it turns on gets no verdict."""
    predicate = asked_predicate(question)
    return bool(predicate) and all(
        word in sentence or (not _DIGITS.search(word) and word[0] in sentence) for word in predicate
    )


def asked_clause_polarity(question: str, sentence: str) -> str:
    """可以 / 不可以 of a sentence that allows in one clause and limits in another (…可以提前转正，但实际试用时间
    不得少于…): the polarity of the clauses that name every word the yes/no `question` turns on (`asked_predicate`), when they
    agree and no clause ruling the other way names a word of the question (试用期员工不得申请 beside 员工可以申请
    调休 for 试用期员工能调休吗: the limit may be the answer, so none is given)."""
    predicate = asked_predicate(question)
    clauses = ruling_clauses(sentence)
    said = {polarity(c) for c in clauses if predicate and all(w in c for w in predicate)} - {""}
    if len(said) != 1:
        return ""
    verdict = said.pop()
    words = [w for w, t in tagged(question) if len(w) > 1 and _is_content(w, t)]
    against = [c for c in clauses if polarity(c) not in ("", verdict)]
    return "" if any(w in c for c in against for w in words) else verdict
