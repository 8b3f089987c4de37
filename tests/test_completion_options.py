"""One helper asks a completion model with only the options its `complete` takes (text.completion): the answer step,
the follow-up rewrite and memory extraction each kept their own copy of the check."""

from __future__ import annotations

from rag_core.text.completion import complete


class PromptOnly:
    def complete(self, prompt: str) -> str:
        return f"only:{prompt}"


class Bounded:
    def complete(self, prompt: str, max_tokens: int | None = None) -> str:
        return f"bounded:{max_tokens}"


class TakesAll:
    def complete(self, prompt: str, **options) -> str:
        return f"all:{sorted(options)}"


def test_only_the_options_a_model_takes_are_passed() -> None:
    assert complete(PromptOnly(), "p", max_tokens=64, deadline_s=6.0) == "only:p"
    assert complete(Bounded(), "p", max_tokens=64, deadline_s=6.0) == "bounded:64"
    assert complete(TakesAll(), "p", max_tokens=64, deadline_s=6.0) == "all:['deadline_s', 'max_tokens']"
