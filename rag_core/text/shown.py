"""Stored text masked as it is read out, by today's masker.

A store keeps what an older version wrote: its masker may have missed a category today's catches (a phone
in Chinese digits). Readers mask what they show, export or put in a prompt (as `memory.recall.read_out`
does), so an upgrade masks old rows without rewriting them. Cached: a page shown again (every Streamlit
rerun) and a repeated text are masked once.

Only what a person wrote is masked again: a question, a title, a memory, a comment, and in an offline answer the
acknowledgement after the quotes (`engine_tail`) and the question's words a refusal names. A document's clauses (an
answer quoting them, a trace's sources, hits and prompt, a gap's nearest clause) stay as stored: they keep the
personal-data categories HR chose to keep at upload (a hotline's landline), or all of them with
RAG_REDACT_PII=false, which today's masker would undo (`answer.prompt` does not mask them again either).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..types import quoted_offline
from .kept import kept_values, masked_keeping
from .pii import redact_text
from .refusal_lines import PERSON_WORDS


@lru_cache(maxsize=4096)
def shown(text: str) -> str:
    """`text` masked for personal data (`redact_text` is idempotent: text masked when stored is unchanged)."""
    return redact_text(text)


_IDS = frozenset({"id", "conversation"})  # keys whose values are identifiers the engine looks up, not text shown


def shown_tree(value: Any) -> Any:
    """Every string in a JSON-like value (a stored trace: dicts, lists, numbers) masked; the rest as it was.
    Identifiers (`id`, `*_id`, `conversation`) stay literal: a memory id an undo deletes by must still match."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {key: item if key in _IDS or str(key).endswith("_id") else shown_tree(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shown_tree(item) for item in value]
    return value


# Keys of a stored trace (`AskTrace.to_dict`) whose items are a document's clauses, and the fields of an item
# that the document wrote; the others (a hit's scores: the question's words it lacks, why it matched) are the
# person's words or numbers, masked as the rest of the trace is.
CLAUSE_KEYS = frozenset({"sources", "hits", "near_misses"})
DOCUMENT_FIELDS = frozenset({"text", "title", "section", "source"})


def _clause_shown(item: Any) -> Any:
    if not isinstance(item, dict):
        return shown_tree(item)
    return {key: value if key in DOCUMENT_FIELDS else shown_tree(value) for key, value in item.items()}


def shown_trace(trace: dict[str, Any]) -> dict[str, Any]:
    """A stored trace as read out: what a person wrote masked (`shown_tree`), the clauses as stored, in the
    prompt too, and the answer as `shown_answer` reads it."""
    out = {key: [_clause_shown(item) for item in item_list] if key in CLAUSE_KEYS and isinstance(item_list, list)
           else shown_tree(item_list) for key, item_list in trace.items()}
    if isinstance(trace.get("prompt"), str):
        out["prompt"] = with_clauses(trace["prompt"], _clause_texts(trace, CLAUSE_KEYS))
    if isinstance(trace.get("answer"), str):
        out["answer"] = shown_answer(trace["answer"], trace)
    return out


def with_clauses(text: str, clauses: list[str]) -> str:
    """`text` masked but for the values `clauses` kept (`text.kept`): a prompt's question and memories masked, a
    hotline HR kept in a clause kept, whatever form the prompt gave the clause (a table, 【】 neutralised)."""
    kept = kept_values(clauses)
    return masked_keeping(text, kept) if kept else shown(text)


def without_tail(answer: str, tail: str) -> str:
    """`answer` without the engine's line at its end (`engine_tail`), when it ends with it: that line repeats what
    the person told, so nothing in it is the answer's (not its citations, not what HR reviews)."""
    return answer[: -len(tail)].rstrip() if tail and answer.endswith(tail) else answer


def shown_answer(answer: str, trace: dict[str, Any]) -> str:
    """A stored answer as read out: the offline quoter's as stored (a document's sentences: `quoted_offline`) but
    for the person's words in it, any other (a model's, an acknowledgement that repeats what the person told)
    masked, a model's but for the values its sources' documents kept (`text.kept`), as it was written."""
    if not quoted_offline(str(trace.get("answerer", ""))):
        return with_clauses(answer, _clause_texts(trace, ("sources",)))
    # the line after the quotes that repeats what the person told (`engine_tail`: 好的，我记住了：…) is theirs
    tail = str(trace.get("engine_tail") or "")
    if not (tail and answer.endswith(tail)):
        tail = ""
    body = answer[: len(answer) - len(tail)]
    # a refusal names the question's words the nearest clause lacks (`text.refusal_lines`); the heading is the document's
    return PERSON_WORDS.sub(lambda m: m.group(1) + shown(m.group(2)), body) + shown(tail)


def _clause_texts(trace: dict[str, Any], keys: Iterable[str]) -> list[str]:
    """The clause texts a stored trace holds under `keys` (sources, hits, near misses)."""
    return [item["text"] for key in keys for item in trace.get(key) or ()
            if isinstance(item, dict) and isinstance(item.get("text"), str)]
