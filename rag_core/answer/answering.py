"""Who writes the answer: nobody at zero hits, the LLM when configured, else the offline quoter.

Zero sources means the reply is 制度里没有写这一条 and no model is called, so
an absent question can never be answered from a model's general knowledge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from ..types import CitationCheck, SourceRef
from .citations import check_citations
from .prompt import NOT_IN_POLICY, BuiltPrompt

OnToken = Callable[[str], None]


class ComposedAnswer(NamedTuple):
    text: str
    answerer: str
    citations: CitationCheck  # what the guard found in an LLM answer; unchecked otherwise


def compose_answer(
    question: str,
    built: BuiltPrompt,
    llm,
    on_token: OnToken | None = None,
    groups: Mapping[str, set[str]] | None = None,
) -> ComposedAnswer:
    """(answer, answerer name, citation check) for a built prompt; streams through `on_token` when given.

    `groups` (question word → thesaurus terms) lets the offline answerer see that
    a clause names the question's subject in policy wording. An LLM answer loses
    any [资料N] the prompt did not have, and its sentences are checked for numbers
    their clauses do not state (`citations`).
    """
    if not built.sources:
        if on_token:
            on_token(NOT_IN_POLICY)
        return ComposedAnswer(NOT_IN_POLICY, "无命中：不调用模型", CitationCheck())
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
        return ComposedAnswer(answer, llm.name, check)
    answer, answerer = _offline(question, built.sources, on_token, groups)
    return ComposedAnswer(answer, answerer, CitationCheck())


def _offline(
    question: str, sources: list[SourceRef], on_token: OnToken | None, groups: Mapping[str, set[str]] | None
) -> tuple[str, str]:
    from .extractive import ExtractiveAnswerer

    answer = ExtractiveAnswerer().answer(question, sources, groups=groups)
    if on_token:
        on_token(answer)
    return answer, ExtractiveAnswerer.name
