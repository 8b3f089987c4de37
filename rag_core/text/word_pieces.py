"""A question word jieba guessed, read as the dictionary words it is made of when the policies never use it.

jieba's HMM joins runs of single characters it cannot place into new words: 饭钱能补多少
gives 能补, 话费要交票吗 gives 要交票. Such a guess is not a word anyone wrote; when no
policy uses it, counting it as an unknown subject makes a plain question look foreign
(能补 reads like an allowance nobody offers). Its dictionary pieces (能 / 补, 要 / 交 / 票)
say what the person asked. A guess some policy does use, and every dictionary word
(饭钱, 打车), is left as it is.

Search reads the question this way where it looks for subjects the policies never name
(`retrieval.foreign_benefits`). The offline answer's guard has no vocabulary of the policies; it reads
only a guess that glues a function word to content this way (`answer.subject.question_terms`): 管饭 and
竞业费 are guesses too, and are what the person asked about. Keyword scoring and the unknown share keep jieba's tokens:
reading them as pieces there too moved the leave-one-corpus-out table both ways (docs/retrieval.md,
"Stop 37").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .tokenizer import is_stopword, jieba_tokenizer

_CJK = re.compile(r"[\u4e00-\u9fff]")


def in_dictionary(word: str) -> bool:
    """jieba (or the HR user dictionary) knows the word, as opposed to its HMM having guessed it."""
    return bool(jieba_tokenizer().FREQ.get(word))


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
    """`tokens` with each guessed word no policy uses (`used` is False) replaced by its dictionary pieces."""
    out: list[str] = []
    for token in tokens:
        if used(token) or in_dictionary(token) or not _CJK.search(token):
            out.append(token)
            continue
        out.extend(p for p in dictionary_pieces(token) if p not in out)
    return out
