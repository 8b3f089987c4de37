"""Which of a question's words a policy sentence holds, and how much each counts: the offline answer's matching.

The question's content words (jieba) and character bigrams (a fallback for words jieba splits), each
weighted by its rarity among the candidate sentences. A word counts where it stands as a word or inside
one, not where it straddles two (车费 of 打车费 is not in 网约车费用); a bigram may (倍工 in 两倍工资).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import jieba

from ..text.sentences import WORD_CHAR_RE
from ..text.tokenizer import word_starts

# Words that say how a question is asked, not what it is about.
STOPWORDS = frozenset(
    """
    的 了 是 吗 呢 吧 啊 呀 么 和 与 及 或 在 对 把 被 给 从 向 就 都 也 还 又 要 会 能 可 请 问 想
    我 你 他 她 它 我们 你们 他们 咱们 公司 员工 自己
    怎么 怎样 怎么样 如何 什么 哪些 哪个 哪里 哪儿 多少 几 为什么 为何 是否 是不是 有没有 能否 可否
    可以 能够 需要 应该 应当 必须 有 没有 一个 一下 这个 那个 这些 那些 这样 那样 如果 的话 关于 规定 制度
    """.split()
)
# Function characters of questions; a bigram containing one is not a useful match.
_STOP_CHARS = frozenset("的了是吗呢吧啊呀么我你他她它和与及或在对把被给从向就都也还又要会能可请问想怎样何哪几谁有没")

_TOKEN_WEIGHT = 1.0
_BIGRAM_WEIGHT = 0.5


def _merge_single_chars(words: list[str]) -> list[str]:
    """Join runs of single content characters: jieba splits unknown words (年假 -> 年/假)."""
    out: list[str] = []
    run = ""
    for w in [*words, ""]:
        if len(w) == 1 and w not in _STOP_CHARS and "\u3400" <= w <= "\u9fff":
            run += w
            continue
        if run:
            out.append(run)
            run = ""
        if w:
            out.append(w)
    return out


def _question_terms(question: str) -> tuple[list[str], list[str]]:
    """Content words of the question (jieba) and its character bigrams (fallback)."""
    tokens: list[str] = []
    for tok in _merge_single_chars(jieba.lcut(question)):
        tok = tok.strip().lower()
        if not tok or tok in STOPWORDS or not WORD_CHAR_RE.search(tok):
            continue
        if len(tok) < 2 and not tok.isdigit():  # single characters are covered by bigrams
            continue
        if tok not in tokens:
            tokens.append(tok)
    chars = [c for c in question.lower() if WORD_CHAR_RE.match(c)]
    bigrams: list[str] = []
    for a, b in zip(chars, chars[1:], strict=False):
        gram = a + b
        if gram in STOPWORDS or a in _STOP_CHARS or b in _STOP_CHARS or gram in bigrams:
            continue
        bigrams.append(gram)
    return tokens, bigrams


def match_terms(question: str, sentences: Sequence, extra_terms: Sequence[str] = ()) -> list[dict[str, float]]:
    """Per sentence, the question terms it contains and their weights.

    A weight is the term's rarity (idf) among the candidate sentences, so
    "出租车" outweighs "报销" when every sentence mentions 报销; longer words get
    a small bonus because they are more specific. Bigrams only add what the
    matched words do not already cover.
    """
    tokens, bigrams = _question_terms(question)
    tokens += [t for t in extra_terms if t not in tokens]  # policy wording of the question's colloquial words
    texts = [s.text.lower() for s in sentences]
    n = len(texts)

    def idf(term: str) -> float:
        df = sum(1 for t in texts if term in t)
        return 1.0 + math.log(n / df) if df else 0.0

    token_w = {t: _TOKEN_WEIGHT * idf(t) * (1.0 + 0.25 * (len(t) - 2)) for t in tokens}
    bigram_w = {g: _BIGRAM_WEIGHT * idf(g) for g in bigrams}
    out = []
    for text in texts:
        bounds = word_starts(text) | {len(text)}
        found = {t: token_w[t] for t in tokens if t in text and not_straddling(t, text, bounds)}
        for g, w in bigram_w.items():
            if g in text and not any(g in t for t in found):  # a bigram may straddle: 倍工 in 两倍工资
                found[g] = w
        out.append(found)
    return out


def not_straddling(term: str, text: str, bounds: frozenset[int]) -> bool:
    """`term` occurs in `text` somewhere without beginning inside one word and ending inside another
    (`bounds`: where jieba's words of `text` begin, and its end). 车费 is not in 网约车|费用; 年假 is in
    带薪年假 (inside a word) and 坐飞机 in 乘坐|飞机 (it ends where a word ends)."""
    return any(m.start() in bounds or m.end() in bounds or not bounds.intersection(range(m.start() + 1, m.end()))
               for m in re.finditer(re.escape(term), text))
