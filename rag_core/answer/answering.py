"""Who writes the answer: nobody at zero hits, the LLM when configured, else the offline quoter.

Zero sources means the reply is 制度里没有写这一条 and no model is called, so
an absent question can never be answered from a model's general knowledge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..types import SourceRef
from .prompt import NOT_IN_POLICY, BuiltPrompt

OnToken = Callable[[str], None]


def compose_answer(
    question: str,
    built: BuiltPrompt,
    llm,
    on_token: OnToken | None = None,
    groups: Mapping[str, set[str]] | None = None,
) -> tuple[str, str]:
    """(answer, answerer name) for a built prompt; streams through `on_token` when given.

    `groups` (question word → thesaurus terms) lets the offline answerer see that
    a clause names the question's subject in policy wording.
    """
    if not built.sources:
        if on_token:
            on_token(NOT_IN_POLICY)
        return NOT_IN_POLICY, "无命中：不调用模型"
    if llm is not None:
        if on_token:
            parts = []
            for piece in llm.stream(built.text):
                parts.append(piece)
                on_token(piece)
            return "".join(parts).strip(), llm.name
        return llm.complete(built.text).strip(), llm.name
    return _offline(question, built.sources, on_token, groups)


def _offline(
    question: str, sources: list[SourceRef], on_token: OnToken | None, groups: Mapping[str, set[str]] | None
) -> tuple[str, str]:
    from .extractive import ExtractiveAnswerer

    answer = ExtractiveAnswerer().answer(question, sources, groups=groups)
    if on_token:
        on_token(answer)
    return answer, ExtractiveAnswerer.name
