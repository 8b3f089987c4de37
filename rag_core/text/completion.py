"""Asking a completion model (any object with `complete(prompt, ...)`), passing only the options it takes.

The answer step, the follow-up rewrite and memory extraction each bound their call (`max_tokens`, a deadline),
but a stand-in model in tests or a plugin may take the prompt alone. They all ask through `complete`, so the
check lives in one place.
"""

from __future__ import annotations

import inspect
from typing import Any, Protocol


class CompletionLLM(Protocol):
    def complete(self, prompt: str) -> str: ...


def complete(llm: CompletionLLM, prompt: str, **options: Any) -> str:
    """`llm.complete(prompt, **options)` with only the options its signature names (a **kwargs takes them all)."""
    try:
        parameters = inspect.signature(llm.complete).parameters
    except (TypeError, ValueError):
        return llm.complete(prompt)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return llm.complete(prompt, **options)  # type: ignore[call-arg]
    return llm.complete(prompt, **{k: v for k, v in options.items() if k in parameters})  # type: ignore[call-arg]
