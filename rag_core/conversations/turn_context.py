"""What `ask` carries through one conversation turn: the question split and made standalone, the earlier turns, and
the facts a statement kept (split from `facade.conversations`, kept under the 400-line limit)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .followup import Rewrite
from .store import Turn

DELETED_MEANWHILE = "这个对话在回答期间已被删除，这一轮没有保存"
CONTEXT_TURNS = 3  # earlier turns the rewrite and the answer step see
CHATTER = "寒暄或对话本身：不检索，不记忆"  # the answerer of a turn of chatter (好的, 谢谢)


def prompt_turns(earlier: Sequence[Turn]) -> list[Turn]:
    """The earlier turns (oldest first) a new turn's rewrite and answer prompt are built from: the last
    `CONTEXT_TURNS` that are not chatter, looked for among the last `CONTEXT_TURNS + 2`. The one rule both the
    prompt (`_earlier_turns`) and the audience tags of what it held (`context_audiences`) use: a chatter turn
    (好的, 谢谢) is left out, what is asked after it goes on from the question before it."""
    recent = list(earlier)[-(CONTEXT_TURNS + 2):]
    return [t for t in recent if t.trace.get("answerer") != CHATTER][-CONTEXT_TURNS:]


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
    deleted_meanwhile: bool = False  # set when the turn was not kept because its conversation was deleted meanwhile
    context_turns: list[int] = field(default_factory=list)  # the numbers of the earlier turns `turns` came from
    # what those turns carry, each (audiences, documents): the new turn keeps it with its own (`turn_access`)
    carried: dict[int, tuple[set[tuple[str, ...]], set[str]]] = field(default_factory=dict)

    @property
    def search_question(self) -> str:
        return self.rewrite.question

    @property
    def followup_note(self) -> str:
        """For the trace: why the search question is what it is ("" when nothing was considered)."""
        return "；".join(part for part in (self.rewrite.explained, self.rewrite.decision) if part)
