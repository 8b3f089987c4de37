"""Write-back: after an answered turn, store the facts the person told about themself, nothing else.

Mixed into `MemoryStore` (relies on its `add` and `_check_user`). The question itself is not a
memory (seed 000's fourth trap: "用户问过…" echoes crowd out the facts); the conversation keeps it.
"""

from __future__ import annotations

from datetime import datetime

from ..text.instructions import addressed_to_assistant
from ..text.pii import redact_text
from .extraction import CompletionLLM, extract_facts
from .forgetting import Written


class WriteBackMixin:
    def told_facts(
        self, user_id: str, question: str, answer: str, *, now: datetime | None = None, llm: CompletionLLM | None = None
    ) -> list[tuple[str, str, str]]:
        """Store what the turn told; (memory id, "added" | "strengthened" | "replaced", the fact as told).

        The fact as told is what an acknowledgement repeats: when it strengthens an older row, that row's
        text may be a different wording (or, before a dedup error was fixed, a different fact)."""
        user_id = self._check_user(user_id)
        if not (question or "").strip():
            return []
        question = redact_text(question)  # facts, the echo and the source line are derived from the masked question
        facts, method = extract_facts(question, answer, llm)
        source = f"{method}: {' '.join(question.split())[:120]}"
        written = []
        for fact in facts:
            if addressed_to_assistant(fact.content):  # an order to the assistant is no fact about the person
                continue
            told = redact_text(" ".join(fact.content.split()))  # what the acknowledgement repeats: as it is stored
            result = self.add(user_id, told, kind=fact.kind, importance=fact.importance, source=source, now=now)
            # the history entry this telling wrote goes with it: undoing the turn takes back exactly that one
            written.append(Written(result[0], result[1], told, telling=getattr(result, "telling", None)))
        return written

    def write_back(
        self, user_id: str, question: str, answer: str, *, now: datetime | None = None, llm: CompletionLLM | None = None
    ) -> list[tuple[str, str]]:
        """`told_facts` without the texts: (memory id, what happened) per fact kept."""
        return [(memory_id, action) for memory_id, action, _ in self.told_facts(user_id, question, answer, now=now, llm=llm)]
