"""A question word jieba guessed, read as the dictionary words it is made of.

jieba's HMM joins runs of single characters it cannot place into new words: 一个月能补几次
gives 能补, 话费要交票吗 gives 要交票. Such a guess is not a word anyone wrote, and the offline
answer's guard asked the clause to name it (没有写明「能补」的规定). It has no vocabulary of the
policies, so it reads only a guess that glues a function word to content as its pieces
(`answer.subject.question_terms`): 管饭 and 竞业费 are guesses too, and are what the person asked about.

Search keeps jieba's tokens: reading guesses as pieces in its foreign-benefit check gained only on
session turns read before writing it, and in keyword scoring and the unknown share it moved the
leave-one-corpus-out table both ways (docs/retrieval.md, "Stop 37").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .tokenizer import is_stopword, is_word, jieba_tokenizer

_CJK = re.compile(r"[\u4e00-\u9fff]")


def _cut(word: str) -> list[str]:
    """jieba's dictionary cut of `word`, without the HMM's guessing (a lookup only: nothing is learned or cached)."""
    return jieba_tokenizer().lcut(word.lower(), HMM=False)


def dictionary_pieces(word: str) -> list[str]:
    """The dictionary words `word` is made of (no HMM guessing), without stopwords: 能补 → [补], 要交票 → [交, 票]."""
    return [p for p in _cut(word) if _CJK.search(p) and not is_stopword(p)]


def glues_a_function_word(word: str) -> bool:
    """Some dictionary piece of `word` is a function word (能补 = 能 + 补, 要交票): no HR word is built that way,
    while a guess of content characters only (管饭, 竞业费) may well be the person's own word."""
    pieces = _cut(word)
    return len(pieces) > 1 and any(is_stopword(p) for p in pieces)


def unguessed(tokens: Sequence[str], used: Callable[[str], bool]) -> list[str]:
    """`tokens` with each guessed word `used` does not keep replaced by its dictionary pieces."""
    out: list[str] = []
    for token in tokens:
        if used(token) or is_word(token) or not _CJK.search(token):
            out.append(token)
            continue
        out.extend(p for p in dictionary_pieces(token) if p not in out)
    return out
