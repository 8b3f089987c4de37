"""What an answer trace leaves in the insight log, and a gap group as an export row (pure functions)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence
from typing import Any

from ..documents.redaction import redact_text
from ..text.shown import shown, without_tail
from ..types import ACKNOWLEDGED, AskTrace, SearchResult
from .records import QUESTION_KEYS, QUESTION_WORD_KEYS, GapGroup, GapItem

_CITED = re.compile(r"\[资料(\d+)\]")


def doc_of_chunk(chunk_id: str) -> str:
    """'doc@v2#7' → 'doc'."""
    return chunk_id.rsplit("#", 1)[0].rsplit("@v", 1)[0]


def cited_docs(trace: AskTrace) -> list[str]:
    """Documents the answer quotes: its [资料N] marks, else every source in the prompt."""
    numbers = {int(n) for n in _CITED.findall(trace.answer)}
    sources = [s for s in trace.sources if not numbers or s.number in numbers]
    return list(dict.fromkeys(doc_of_chunk(s.chunk_id) for s in sources))


def nearest_clause(result: SearchResult) -> dict[str, Any]:
    """The best hit, else the best near miss, as a small record for the gap page."""
    best = (result.hits or result.near_misses or [None])[0]
    if best is None:
        return {}
    c = best.chunk
    return {"chunk_id": c.chunk_id, "doc_id": c.doc_id, "title": c.title, "section": c.section, "text": c.text[:160],
            "audience": list(c.audience)}


def masked(value: Any) -> Any:
    """Every string in a JSON-like value with personal data masked."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [masked(v) for v in value]
    if isinstance(value, dict):
        return {k: masked(v) for k, v in value.items()}
    return value


# What a rated trace never keeps for HR's review: the asker's memories, and the prompt and search text that held them;
# the memories the turn stored of what the asker told about themself, and the engine's line that repeated them.
_PRIVATE = ("memories", "prompt", "memory_search", "acknowledged", "engine_tail")
# Of a search that ran on the question with the asker's memories added (`AskTrace.memory_search`), only these numbers
# and the clauses found are kept: everything else it derived from that text (warnings, unknown words, the second
# reading, why each clause matched) could show what the memories hold.
_SEARCH_NUMBERS = ("hit_count", "threshold", "answerable", "unknown_share", "second_best", "store_chunks", "timings_ms")


def told_only(trace: AskTrace) -> bool:
    """A turn that asked nothing (a statement about the person, or chatter): its words and its reply are the
    asker's and the engine's, never a question for HR."""
    return trace.outcome == ACKNOWLEDGED


def told_something(trace: AskTrace) -> bool:
    """A turn that told something about the asker, alone or before a question (我常驻杭州，…): its typed words
    hold the statement, so they are never what HR reads as its question."""
    return told_only(trace) or bool(trace.engine_tail or trace.acknowledged)


def policy_answer(trace: AskTrace) -> str:
    """The answer as the policies gave it, for HR's review: without the engine's line after it (`engine_tail`, the
    acknowledgement repeating what the asker told about themself), and nothing of a turn that only told."""
    if told_only(trace):
        return ""
    return without_tail(trace.answer, trace.engine_tail)


def reviewed_question(trace: AskTrace) -> str:
    """The typed question as HR reviews it: the searched one when the turn also told something about the asker
    (我常驻杭州，… keeps only what was asked), none when it only told."""
    if told_only(trace):
        return ""
    return (trace.search_question or trace.question) if trace.engine_tail else trace.question


def reviewed_trace(trace: AskTrace) -> dict[str, Any]:
    """The rated trace as HR reviews it, personal data masked, with nothing of what the asker told about themself."""
    kept = {k: v for k, v in trace.to_dict().items() if k not in _PRIVATE}
    kept["question"], kept["answer"] = reviewed_question(trace), policy_answer(trace)
    if told_only(trace):
        kept["search_question"] = ""
    if getattr(trace, "memory_search", ""):
        without_memory_search(kept, trace.search_question or trace.question)
    return masked(kept)


def without_memory_search(kept: dict[str, Any], asked: str) -> dict[str, Any]:
    """A stored trace (`AskTrace.to_dict()`) whose search ran with the asker's memories added, changed in place to
    keep none of that text: every search field built from it blanked but the numbers and the clauses found, the
    query set back to what was asked, and why each clause matched (it names the words it matched) left out."""
    for key in set(SearchResult(query="", hits=[]).to_dict()) - {"hits", "near_misses", *_SEARCH_NUMBERS}:
        if key in kept:
            kept[key] = type(kept[key])()
    kept["query"] = asked
    for hit in [*kept.get("hits", []), *kept.get("near_misses", [])]:
        hit["scores"] = {**hit.get("scores", {}), "why": "", "missing": []}
    return kept


MEMORIES_PURGED = "（这一轮用到的记忆已随“清空全部记忆”删除，完整提示词不再保留）"
TOLD_PURGED = "（这里记住的信息已随“清空全部记忆”删除。）"


def purged_turn(trace: dict[str, Any], answer: str) -> tuple[dict[str, Any], str] | None:
    """A stored turn after its asker's memories were purged (`ConversationStore.rewrite_turns`), or None when it
    held none: the memories it used, the search with them and the prompt that quoted them go; a statement's
    list of what it remembered goes (nothing is left to undo) and its answer says the facts were deleted. What the
    person typed stays: it is their conversation's record."""
    used, told = trace.get("memories") or trace.get("memory_search"), trace.get("acknowledged")
    if not used and not told:
        return None
    if trace.get("memory_search"):
        without_memory_search(trace, str(trace.get("search_question") or trace.get("question") or ""))
    if trace.get("memories"):
        trace["prompt"] = MEMORIES_PURGED
    trace["memories"], trace["memory_search"] = [], ""
    if told:
        trace["acknowledged"] = []
        shown, tail = str(trace.get("answer", "")), str(trace.get("engine_tail") or "")
        if shown.endswith(tail):  # the note is the engine's, as an undo's is (`facade.conversations`)
            trace["engine_tail"] = f"{tail}\n\n{TOLD_PURGED}".strip()
        trace["answer"] = f"{shown}\n\n{TOLD_PURGED}".strip()
        answer = f"{answer}\n\n{TOLD_PURGED}".strip()
    return trace, answer


MEMORIES_DELETED = "（这一轮用到的记忆已被删除，完整提示词不再保留）"
MEMORIES_EDITED = "（这一轮用到的记忆之后被修改，修改前的内容和完整提示词不再保留）"


def forgotten_turn(memory_ids: Collection[str], note: str = MEMORIES_DELETED
                   ) -> Callable[[dict[str, Any], str], tuple[dict[str, Any], str] | None]:
    """`purged_turn` for some memories only (deleted or forgotten by id): a stored turn that used any of them keeps
    the others in its list of memories used, and loses the search with memories and the prompt that quoted them;
    None for a turn that used none. What a statement turn remembered stays listed (undo reads it; the turn's own
    words say the fact anyway). `note`: what the prompt reads instead (an edit's: its earlier text is gone too)."""
    gone = set(memory_ids)

    def change(trace: dict[str, Any], answer: str) -> tuple[dict[str, Any], str] | None:
        used = [m for m in trace.get("memories") or [] if isinstance(m, dict)]
        if not gone.intersection(m.get("id") for m in used):
            return None
        if trace.get("memory_search"):
            without_memory_search(trace, str(trace.get("search_question") or trace.get("question") or ""))
        trace["memories"] = [m for m in used if m.get("id") not in gone]
        trace["memory_search"], trace["prompt"] = "", note
        return trace, answer

    return change


def without_question(trace: Any) -> Any:
    """A reviewed trace with nothing the question's words are in (kept when the retention is 0: 不记录提问): the
    question's wordings blanked, and at any depth every field built from its words left out (`QUESTION_WORD_KEYS`)."""
    if isinstance(trace, dict):
        return {k: "" if k in QUESTION_KEYS else without_question(v) for k, v in trace.items()
                if k in QUESTION_KEYS or k not in QUESTION_WORD_KEYS}
    if isinstance(trace, list):
        return [without_question(item) for item in trace]
    return trace


def gap_item(row: Sequence[Any]) -> GapItem:
    """A gap query's row (question, when, kind, user, nearest, 👎 id, audiences, …) as an item: the question masked
    by today's masker as read out (a row an older version logged may hold what its masker missed); the nearest
    clause is a document's, as stored (`text.shown`)."""
    question, when, kind, user, nearest, feedback_id, audiences = row[:7]
    return GapItem(text=shown(question), when=when, kind=kind, user=user, nearest=json.loads(nearest),
                   feedback_id=feedback_id,
                   audiences=None if audiences is None else [tuple(x) for x in json.loads(audiences)])


def gap_row(group: GapGroup) -> dict[str, Any]:
    """A gap group as one flat export row (the nearest clause as its title and section; users only when kept)."""
    row = group.to_dict()
    near = row.pop("nearest") or {}
    row["nearest"] = f"{near.get('title', '')} {near.get('section', '')}".strip()
    answered = row.pop("answered_by") or {}
    row["answered_by"] = f"{answered['id']}：{answered['question']}" if answered else ""
    if not row["users"]:
        row.pop("users")
    return row
