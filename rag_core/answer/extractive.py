"""Offline answerer: quotes the most relevant policy sentences verbatim.

Used when no LLM is configured. It cannot paraphrase, so it cannot invent:
every line it prints is a whole sentence copied from a numbered source, with
the [资料N] marker of that source.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

import jieba

from ..types import SourceRef
from .llm import NOT_IN_POLICY

HEADER = "根据制度："

# Sentence ends; closing quotes/brackets right after them stay with the sentence.
_END_CHARS = "。！？；"
_CLOSERS = "”’」』）)】》\"'"
_SENTENCE_RE = re.compile(rf"[^{_END_CHARS}\n]*(?:[{_END_CHARS}]+[{re.escape(_CLOSERS)}]*|\n|$)")

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

_WORD_CHAR_RE = re.compile(r"[0-9A-Za-z\u3400-\u9fff]")
_HEADING_RE = re.compile(
    r"^\s*(?:#{1,6}\s*|第[零〇一二三四五六七八九十百千万\d]+[章节条款部篇]|[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十\d]+[)）])"
)
_HEADING_MAX_CHARS = 30

_TOKEN_WEIGHT = 1.0
_BIGRAM_WEIGHT = 0.5
_RELATIVE_FLOOR = 0.3  # an extra sentence must add at least this share of the best score
_COVERED_FACTOR = 0.5  # a term already quoted still counts, at half weight
_FRAGMENT_FACTOR = 0.85  # a chunk's unterminated last piece may be a sentence cut by chunking


@dataclass(frozen=True)
class Quote:
    """One verbatim sentence and where it came from."""

    text: str
    source_number: int
    position: int  # order within its source
    is_heading: bool
    complete: bool  # ended by punctuation or a line break (not cut at the end of the chunk)


def split_sentences(text: str) -> list[str]:
    """Split on 。！？；and line breaks, keeping the end punctuation; drop empty pieces."""
    out = []
    for match in _SENTENCE_RE.finditer(text):
        piece = match.group(0).strip()
        if piece and _WORD_CHAR_RE.search(piece):
            out.append(piece)
    return out


def _is_heading(sentence: str, section: str) -> bool:
    """A heading line: no end punctuation, short, and numbered like a heading or named in the section path."""
    if len(sentence) > _HEADING_MAX_CHARS or any(c in _END_CHARS for c in sentence):
        return False
    if _HEADING_RE.match(sentence):
        return True
    parts = {p.strip() for p in re.split(r"[>/]", section) if p.strip()}
    return sentence.lstrip("# ").strip() in parts


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
        if not tok or tok in STOPWORDS or not _WORD_CHAR_RE.search(tok):
            continue
        if len(tok) < 2 and not tok.isdigit():  # single characters are covered by bigrams
            continue
        if tok not in tokens:
            tokens.append(tok)
    chars = [c for c in question.lower() if _WORD_CHAR_RE.match(c)]
    bigrams: list[str] = []
    for a, b in zip(chars, chars[1:], strict=False):
        gram = a + b
        if gram in STOPWORDS or a in _STOP_CHARS or b in _STOP_CHARS or gram in bigrams:
            continue
        bigrams.append(gram)
    return tokens, bigrams


class ExtractiveAnswerer:
    """Picks whole sentences from the sources by term overlap with the question."""

    name = "extractive"

    def answer(self, question: str, sources: list[SourceRef], max_sentences: int = 3) -> str:
        lines = self._lines(question, sources, max_sentences)
        if not lines:
            return NOT_IN_POLICY
        return "\n".join([HEADER, *lines])

    def stream(self, question: str, sources: list[SourceRef], max_sentences: int = 3) -> Iterator[str]:
        """The same text as `answer`, one line at a time, for the chat UI."""
        lines = self._lines(question, sources, max_sentences)
        if not lines:
            yield NOT_IN_POLICY
            return
        yield HEADER
        for line in lines:
            yield "\n" + line

    # -- selection -------------------------------------------------------------

    def _lines(self, question: str, sources: list[SourceRef], max_sentences: int) -> list[str]:
        picked = self.select(question, sources, max_sentences)
        return [f"- {s.text} [资料{s.source_number}]" for s in picked]

    def select(self, question: str, sources: list[SourceRef], max_sentences: int = 3) -> list[Quote]:
        """The chosen sentences in source order (by source number, then position)."""
        if not sources or max_sentences < 1:
            return []
        sentences = self._collect(sources)
        if not sentences:
            return []
        if any(not s.is_heading for s in sentences):
            sentences = [s for s in sentences if not s.is_heading]

        matches = self._match(question, sentences)
        scores = [
            sum(m.values()) * (1.0 if s.complete else _FRAGMENT_FACTOR) for m, s in zip(matches, sentences, strict=True)
        ]
        ranked = sorted(
            range(len(sentences)),
            key=lambda i: (-scores[i], not sentences[i].complete, sentences[i].source_number, sentences[i].position),
        )

        # The top source was judged relevant by retrieval: always quote its best sentence.
        first_number = min(s.source_number for s in sentences)
        chosen = [next(i for i in ranked if sentences[i].source_number == first_number)]
        covered = set(matches[chosen[0]])
        floor = max(scores[ranked[0]] * _RELATIVE_FLOOR, 1e-9)
        # Greedy coverage: prefer sentences that answer a part of the question not yet quoted,
        # so "年假几天，病假要什么证明" quotes both rules instead of two variants of one.
        while len(chosen) < max_sentences:
            best_i, best_gain = -1, 0.0
            for i in ranked:
                if i in chosen:
                    continue
                factor = 1.0 if sentences[i].complete else _FRAGMENT_FACTOR
                gain = factor * sum(w * (_COVERED_FACTOR if t in covered else 1.0) for t, w in matches[i].items())
                if gain > best_gain + 1e-12:
                    best_i, best_gain = i, gain
            if best_i < 0 or best_gain < floor:
                break
            chosen.append(best_i)
            covered.update(matches[best_i])
        return sorted((sentences[i] for i in chosen), key=lambda s: (s.source_number, s.position))

    @staticmethod
    def _collect(sources: list[SourceRef]) -> list[Quote]:
        """All sentences, higher-ranked sources first; a sentence repeated by chunk overlap is kept once."""
        seen: set[str] = set()
        out: list[Quote] = []
        for src in sorted(sources, key=lambda s: s.number):
            pieces = list(_SENTENCE_RE.finditer(src.text))
            position = 0
            for match in pieces:
                raw = match.group(0)
                text = raw.strip()
                if not text or not _WORD_CHAR_RE.search(text):
                    continue
                key = re.sub(r"\s+", "", text)
                if key in seen:
                    continue
                seen.add(key)
                complete = raw.rstrip(" \t\r").endswith("\n") or text[-1] in _END_CHARS or text[-1] in _CLOSERS
                out.append(Quote(text, src.number, position, _is_heading(text, src.section), complete))
                position += 1
        return out

    @staticmethod
    def _match(question: str, sentences: list[Quote]) -> list[dict[str, float]]:
        """Per sentence, the question terms it contains and their weights.

        A weight is the term's rarity (idf) among the candidate sentences, so
        "出租车" outweighs "报销" when every sentence mentions 报销; longer words get
        a small bonus because they are more specific. Bigrams only add what the
        matched words do not already cover.
        """
        tokens, bigrams = _question_terms(question)
        texts = [s.text.lower() for s in sentences]
        n = len(texts)

        def idf(term: str) -> float:
            df = sum(1 for t in texts if term in t)
            return 1.0 + math.log(n / df) if df else 0.0

        token_w = {t: _TOKEN_WEIGHT * idf(t) * (1.0 + 0.25 * (len(t) - 2)) for t in tokens}
        bigram_w = {g: _BIGRAM_WEIGHT * idf(g) for g in bigrams}
        out = []
        for text in texts:
            found = {t: token_w[t] for t in tokens if t in text}
            for g, w in bigram_w.items():
                if g in text and not any(g in t for t in found):
                    found[g] = w
            out.append(found)
        return out
