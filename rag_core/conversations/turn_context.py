"""What `ask` carries through one conversation turn: the question split and made standalone, the earlier turns, and
the facts a statement kept (split from `facade.conversations`, kept under the 400-line limit)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .followup import Rewrite

DELETED_MEANWHILE = "这个对话在回答期间已被删除，这一轮没有保存"


class Remembered(list):
    """The facts a turn kept ({"id", "content"} each), and why none could be kept (a damaged memory store):
    `ask` passes it on to `_finish_turn`, which puts the failure in the trace's warnings."""

    def __init__(self, facts=(), *, failure: str = "") -> None:
        super().__init__(facts)
        self.failure = failure


def said_back(remembered: list[dict]) -> list[str]:
    """What the acknowledgement repeats: every fact kept, except one the same turn replaced (its id stays for undo)."""
    return [m["content"] for m in remembered if not m.get("replaced")]


@dataclass
class TurnContext:
    """What `ask` needs from the conversation before it searches."""

    question: str  # as typed
    asked: str  # the asking part ("" for a pure statement)
    statement: str  # the telling part ("" when none)
    rewrite: Rewrite
    turns: list[tuple[str, str]] = field(default_factory=list)  # last (question, answer) pairs
    conversation: str | None = None
    warnings: list[str] = field(default_factory=list)  # e.g. the conversation store is damaged: not kept
    chatter: bool = False  # only words about the conversation (好的 / 谢谢 / 我不明白): no search, no memory
    went_on: bool = False  # the conversation was stored when the question came: gone at the end, it was deleted

    @property
    def search_question(self) -> str:
        return self.rewrite.question

    @property
    def followup_note(self) -> str:
        """For the trace: why the search question is what it is ("" when nothing was considered)."""
        return "；".join(part for part in (self.rewrite.explained, self.rewrite.decision) if part)
