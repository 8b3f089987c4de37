"""Who writes the answer: nobody at zero hits, the LLM when configured, else the offline quoter.

Zero sources means the reply is 制度里没有写这一条 and no model is called, so
an absent question can never be answered from a model's general knowledge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ..types import ANSWERED, REFUSED, STRONG_EVIDENCE, WEAK, WEAK_EVIDENCE, CitationCheck, SourceRef
from .citations import check_citations
from .prompt import NOT_IN_POLICY, BuiltPrompt

OnToken = Callable[[str], None]
# How close each sentence is in meaning to the question (cosines from a sentence model), for the offline lead
Closeness = Callable[[str, Sequence[str]], Sequence[float]]


class ComposedAnswer(NamedTuple):
    text: str
    answerer: str
    citations: CitationCheck  # what the guard found in an LLM answer; unchecked otherwise
    weak: bool = False  # an answer (not a refusal) resting on 依据较弱 evidence only: said in the chat, a gap for HR
    refused: bool = False  # 制度里没有写这一条 (no source, or the answerer found none that answers)
    verdict: str = ""  # 可以 / 不可以 the offline answer states for a yes/no question ("" otherwise, or a model's)

    @property
    def outcome(self) -> str:
        """The trace's outcome: refused, weak or answered."""
        return REFUSED if self.refused else WEAK if self.weak else ANSWERED


# The offline answer's first line when the best source that governs the question is only weak evidence:
# such answers quote no answering clause about twice as often as the others (bench/weak_evidence.py).
WEAK_HEADER = "依据较弱：以下条款与这个问题最相关，但不一定直接回答了它，请核对原文。"
# what a refusal starts with (zero hits, or the offline guards); also read by the eval
REFUSAL_MARKERS = (NOT_IN_POLICY, "制度没有写明")


def is_refusal(text: str) -> bool:
    """An answer that says the policies do not cover the question. The one place answer text is read for it:
    a model says so in words (the prompt tells it how), the offline answerer opens with the same words."""
    return any(marker in text.strip()[:40] for marker in REFUSAL_MARKERS)


def _weak_model_answer(text: str, sources: list[SourceRef]) -> bool:
    """A model's answer (not its refusal) written when no source was 依据充分 and some were 依据较弱."""
    verdicts = {s.verdict for s in sources}
    return not is_refusal(text) and WEAK_EVIDENCE in verdicts and STRONG_EVIDENCE not in verdicts


def compose_answer(
    question: str,
    built: BuiltPrompt,
    llm,
    on_token: OnToken | None = None,
    groups: Mapping[str, set[str]] | None = None,
    facts: Sequence[str] = (),
    closeness: Closeness | None = None,
    typed: str = "",
) -> ComposedAnswer:
    """(answer, answerer name, citation check) for a built prompt; streams through `on_token` when given.

    `groups` (question word → thesaurus terms) lets the offline answerer see that
    a clause names the question's subject in policy wording. An LLM answer loses
    any [资料N] the prompt did not have, and its sentences are checked for numbers
    their clauses do not state (`citations`). `closeness` (question, sentences → how close each is in
    meaning) helps the offline answerer pick the sentence that leads. `typed` is the question as the person
    typed it when `question` is a follow-up made standalone: what it asks is read from it (`what_is_asked`).
    """
    if not built.sources:
        if on_token:
            on_token(NOT_IN_POLICY)
        return ComposedAnswer(NOT_IN_POLICY, "无命中：不调用模型", CitationCheck(), refused=True)
    if llm is not None:
        if on_token:
            parts = []
            for piece in llm.stream(built.text):
                parts.append(piece)
                on_token(piece)
            raw = "".join(parts)
        else:
            raw = llm.complete(built.text)
        answer, check = check_citations(raw.strip(), built.sources)
        return ComposedAnswer(answer, llm.name, check, _weak_model_answer(answer, built.sources), is_refusal(answer))
    from .headers import stated_verdict

    answer, answerer = _offline(question, built.sources, on_token, groups, facts, closeness, typed)
    return ComposedAnswer(answer, answerer, CitationCheck(), answer.startswith(WEAK_HEADER), is_refusal(answer),
                          stated_verdict(answer))


def _offline(
    question: str, sources: list[SourceRef], on_token: OnToken | None, groups: Mapping[str, set[str]] | None,
    facts: Sequence[str] = (), closeness: Closeness | None = None, typed: str = "",
) -> tuple[str, str]:
    from .asks import what_is_asked
    from .extractive import ExtractiveAnswerer

    answer = ExtractiveAnswerer().answer(question, sources, groups=groups, facts=facts, closeness=closeness,
                                         asks=what_is_asked(typed, question))
    if on_token:
        on_token(answer)
    return answer, ExtractiveAnswerer.name
