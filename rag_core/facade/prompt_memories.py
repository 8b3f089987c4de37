"""Which recalled memories a built prompt holds: the trace and the answer step must name those, not every recalled one.

`build_prompt` leaves out a memory that gives the assistant orders (one stored before the store refused them) and,
when the budget is tight, the last (least relevant) ones, counting those in `BuiltPrompt.dropped_memories`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..answer.prompt import BuiltPrompt
from ..text.instructions import addressed_to_assistant
from ..types import MemoryHit


def memories_in_prompt(memories: Sequence[MemoryHit], built: BuiltPrompt) -> list[MemoryHit]:
    """The memories `built` put in its 【关于用户的记忆】 section, in the order recall gave them."""
    offered = [m for m in memories if not addressed_to_assistant(m.content)]
    return offered[: len(offered) - built.dropped_memories]
