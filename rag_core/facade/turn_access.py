"""Which stored turns a reader may still read, and what the prompt of a new turn may hold of them.

A turn keeps the clauses it showed (hits, near misses, sources, the prompt, the answer quoting them) and the
audience labels of each (`Hit.to_dict`). Its answer also drew on the turns in its prompt (`prompt_turns`), so a
turn carries what they carried too. When a turn is read back for someone (reopened, exported, or the context
of a new turn), it is judged as HR's views judge a record (`insights.audiences`): every audience it carries,
and every audience the documents it names have now (a policy narrowed since to managers only), must be readable
by the reader; else only its question shows, with `HIDDEN_TURN` for its answer (SECURITY.md: a turn holds only
what its owner may read). A document deleted since hides nothing: what was answered then stays.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from ..conversations.store import Conversation, ConversationError, ConversationStore, Turn
from ..conversations.turn_context import CHATTER, CONTEXT_TURNS, prompt_turns
from ..errors import StoreDamaged
from ..insights.audiences import UNKNOWN, audiences_now, named_documents, readable_by, revealed
from ..types import ACKNOWLEDGED, AskTrace

HIDDEN_TURN = "这一轮引用的制度你现在已无权查看，内容已隐藏"
CONTEXT_KEY = "context_turns"  # in a stored trace: the numbers of the earlier turns its prompt held
# in a stored trace: the audiences and documents the turn carries (its own, and its prompt's turns', back), written
# with it, so judging a turn reads that turn only, not the whole history before it (a 10k-turn conversation)
CARRIED_KEY = "carried"
# what a hidden turn's trace keeps: who and where, and what the person told (undo stays possible), no policy text
_KEPT_KEYS = ("conversation", "turn", "acknowledged", "acknowledgement_undone", "token_budget")

Carried = dict[int, tuple[set[tuple[str, ...]], set[str]]]  # turn number → (audiences, documents) it carries


class _WithConversations(Protocol):
    @property
    def conversations(self) -> ConversationStore: ...


def _used_context(turn: Turn) -> bool:
    """Whether the turn's rewrite or answer was built from earlier turns (chatter and a statement alone were not)."""
    return turn.trace.get("answerer") != CHATTER and turn.trace.get("outcome") != ACKNOWLEDGED


def in_prompt(turn: Turn, earlier: Sequence[Turn]) -> list[int]:
    """The numbers of the earlier turns `turn`'s prompt and rewrite held: as stored with it (`CONTEXT_KEY`: a turn
    its asker could no longer read was left out), else, for a turn stored before that was kept, by `prompt_turns`."""
    if not _used_context(turn):
        return []
    kept = turn.trace.get(CONTEXT_KEY)
    if isinstance(kept, list):
        return [n for n in kept if isinstance(n, int)]
    return [t.turn for t in prompt_turns(earlier)]


def carried(turns: Sequence[Turn]) -> Carried:
    """For each turn (oldest first): the audiences of the clauses it showed and the documents it named, with those
    of every turn its prompt held, and so on back (an answer may repeat the answer before it). A turn that keeps
    them (`CARRIED_KEY`) is read as kept; one stored before that needs the history before it (`self_contained`)."""
    found: Carried = {}
    for i, turn in enumerate(turns):
        kept = _kept_carried(turn)
        if kept is None:
            kept = set(revealed(turn.trace)), set(named_documents(turn.trace))
            for number in in_prompt(turn, turns[:i]):
                more_audiences, more_docs = found.get(number, (set(), set()))
                kept[0].update(more_audiences)
                kept[1].update(more_docs)
        found[turn.turn] = kept
    return found


def _kept_carried(turn: Turn) -> tuple[set[tuple[str, ...]], set[str]] | None:
    kept = turn.trace.get(CARRIED_KEY)
    if not isinstance(kept, dict) or not isinstance(kept.get("audiences"), list) \
            or not isinstance(kept.get("documents"), list):
        return None
    return ({tuple(str(label) for label in labels) for labels in kept["audiences"] if isinstance(labels, list)},
            {doc for doc in kept["documents"] if isinstance(doc, str)})


def self_contained(turns: Sequence[Turn]) -> bool:
    """Whether `carried(turns)` needs no turn before them: each keeps what it carries."""
    return all(_kept_carried(turn) is not None for turn in turns)


def carried_record(trace: dict[str, Any], held: Carried) -> dict[str, list]:
    """What a new turn carries (`CARRIED_KEY`): its trace's own audiences and documents and those of the turns its
    prompt held (`held`, as `carried` found them)."""
    audiences, docs = set(revealed(trace)), set(named_documents(trace))
    for more_audiences, more_docs in held.values():
        audiences |= more_audiences
        docs |= more_docs
    return {"audiences": sorted(list(labels) for labels in audiences), "documents": sorted(docs)}


def context_audiences(facade: _WithConversations, trace: AskTrace) -> list[tuple[str, ...]]:
    """The audiences of every clause the turns before `trace`'s showed and its prompt held (`prompt_turns`, the
    rule the prompt is built by; chatter left out), with what those turns carried: an answer may repeat them and
    an LLM's rewrite may have folded them into its search question. A store that cannot be read counts as unknown
    (administrators only).

    Engine-internal, for the insights log's audience tags (`facade.insights`): it reads any person's conversation
    unchecked, so it is a function of this module, not a public facade method (review 51i)."""
    if not trace.conversation or trace.turn <= 1:
        return []
    try:  # the recent turns when they keep what they carry (`self_contained`), else the whole history
        recent = facade.conversations.turns(trace.conversation, CONTEXT_TURNS + 4, masked_traces=False)
        turns = [t for t in recent if t.turn <= trace.turn]
        earlier = [t for t in turns if t.turn < trace.turn]
        if not any(t.turn == trace.turn for t in turns) or not self_contained(prompt_turns(earlier)):
            turns = [t for t in facade.conversations.turns(trace.conversation, masked_traces=False)
                     if t.turn <= trace.turn]
            earlier = [t for t in turns if t.turn < trace.turn]
    except (StoreDamaged, ConversationError, sqlite3.Error):
        return [UNKNOWN]
    found = carried(earlier)
    stored = next((t for t in turns if t.turn == trace.turn), None)  # as stored: which turns its prompt held
    held = in_prompt(stored, earlier) if stored is not None else [t.turn for t in prompt_turns(earlier)]
    return sorted({labels for n in held for labels in found.get(n, (set(), set()))[0]})


class TurnReader:
    """Judges stored turns for one reader (`readable`: their audience labels, None for every label); each
    document's current audiences are read from the catalog once per reader, however many turns name it."""

    def __init__(self, catalog: Any, readable: frozenset[str] | None, day: str | None = None) -> None:
        self.catalog, self.readable, self.day = catalog, readable, day  # day: the office's today (ISO)
        self._now: dict[str, list[tuple[str, ...]]] = {}

    def hidden(self, turns: Sequence[Turn], found: Carried | None = None) -> set[int]:
        """The numbers of the turns (oldest first: the whole history, or recent turns that are `self_contained`)
        the reader may no longer read; `found`: `carried(turns)` when the caller has it."""
        if self.readable is None:
            return set()
        return {number for number, (audiences, docs) in (carried(turns) if found is None else found).items()
                if not readable_by([*audiences, *audiences_now(self.catalog, docs, self._now, self.day)], self.readable)}

    def shown(self, conversation: Conversation) -> Conversation:
        """The conversation as the reader may see it: each turn they may no longer read shows its question only."""
        hidden = self.hidden(conversation.turns)
        if not hidden:
            return conversation
        return replace(conversation, turns=[hidden_turn(t) if t.turn in hidden else t for t in conversation.turns])


def hidden_turn(turn: Turn) -> Turn:
    """A turn shown without what it quoted: the question the person typed stays, the answer is one plain line."""
    trace = {key: turn.trace[key] for key in _KEPT_KEYS if key in turn.trace}
    trace |= {"question": turn.question, "answer": HIDDEN_TURN, "answerer": "", "hidden": True}
    return replace(turn, search_question=turn.question, answer=HIDDEN_TURN, trace=trace)
