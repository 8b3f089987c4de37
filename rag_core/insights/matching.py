"""When a question is the standard question: the match rule for standard answers.

Cosine alone cannot decide it: on e5, two different questions about one topic
(工作日加班费怎么算 / 法定节假日加班费是多少) reach 0.94–0.96 while true
paraphrases spread from 0.86 to 0.95 (docs/insights.md). So a match needs the
cosine above a calibrated floor *and* the words to agree: each side's content
words are named by the other (the word, one of its thesaurus terms, or a word
containing it), and no situation, person or benefit (加班, 子女, 婚假 …) of one
side is missing from the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text.tokenizer import expand_query, tokenize
from ..text.vocabulary import narrows_scope

# Fitted by bench/calibrate_standard_answers.py (docs/insights.md): no eval question that a
# standard answer does not answer, nor the hand-judged cross-corpus pair there, reaches both floors.
STANDARD_COSINE = 0.955
STANDARD_AGREEMENT = 0.5


@dataclass(frozen=True)
class Wording:
    """A question's content words and the thesaurus terms that count as each."""

    tokens: frozenset[str]
    terms: frozenset[str]  # tokens plus every thesaurus term added for them
    groups: dict[str, frozenset[str]]


def wording(text: str) -> Wording:
    tokens, added, groups = expand_query(text)
    base = frozenset(tokenize(text))
    return Wording(base, frozenset(tokens) | frozenset(added) | base, {k: frozenset(v) for k, v in groups.items()})


def _named(token: str, own: Wording, other: Wording) -> bool:
    if token in other.terms or own.groups.get(token, frozenset()) & other.terms:
        return True
    return len(token) > 1 and any(len(t) > 1 and (token in t or t in token) for t in other.tokens)


def coverage(own: Wording, other: Wording) -> float:
    """Share of `own`'s content words that `other` names."""
    if not own.tokens:
        return 1.0
    return sum(_named(t, own, other) for t in own.tokens) / len(own.tokens)


def agreement(a: Wording, b: Wording) -> float:
    """Both ways: the smaller share of one side's words the other names; 0 when a scope word is missing."""
    for own, other in ((a, b), (b, a)):
        if any(narrows_scope(t) and not _named(t, own, other) for t in own.tokens):
            return 0.0
    return min(coverage(a, b), coverage(b, a))


def is_match(cosine: float, agree: float, *, cosine_floor: float = STANDARD_COSINE,
             agreement_floor: float = STANDARD_AGREEMENT) -> bool:
    """The rule: close in meaning and in words."""
    return cosine >= cosine_floor and agree >= agreement_floor
