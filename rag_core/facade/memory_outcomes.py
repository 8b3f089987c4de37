"""What the memories page's two bulk removals did, as the page and the CLI report it (split from `facade.memories`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Forgotten:
    """What 确认遗忘 did: how many of the previewed memories went, how many the preview listed, how many listed ones
    were kept because they were edited, re-weighed or told again since (nobody saw them as they are now), and
    whether the memories changed since (forgetting down to the same N now would list others): the page says so."""

    count: int
    listed: int
    changed: bool
    kept_changed: int = 0


@dataclass(frozen=True)
class Purged:
    """What 清空全部记忆 did: the memories deleted, the stored turns they were taken out of, and whether the
    conversation store could not be rewritten (the memories are gone, but turns may still quote them: say so)."""

    count: int
    turns: int = 0
    turns_failed: bool = False
