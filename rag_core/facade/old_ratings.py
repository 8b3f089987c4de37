"""At a start: ratings an older version kept only in the catalog move into the insights log (then the old table goes).

Versions before 2026-12-01 kept every 👍/👎 in catalog.sqlite3 (table `feedback`), with the whole trace: the asker's
memories and the prompt included, the question as typed. A later version dropped that table at the first open, which
lost every such rating for good. Here each one the insights log lacks is copied as a rating kept today would be:
masked, without what the asker's memories held, the audiences of the clauses it showed (administrators only when the
trace did not keep them), a person's, within the question retention (at 0, 不记录, nothing is copied). Only after that
commit is the catalog's table dropped; a store notice says how many moved (none when there was nothing to move).

What the asker told about themself stays out as it does for a rating kept today. Those versions kept no `outcome` or
`engine_tail`: a turn told something when its trace remembered something (`acknowledged`) or its answer ends with the
engine's reply to a statement (`acknowledgement`); one that only told (its answerer `TOLD_ONLY`) keeps no question or
answer, one that also asked keeps the question searched and the answer without that reply.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from ..conversations.records import trace_from_dict
from ..conversations.statements import acknowledgement, second_person
from ..documents.old_ratings import drop_old_ratings, old_ratings
from ..documents.redaction import redact_text
from ..errors import StoreDamaged
from ..insights.audiences import UNKNOWN, revealed
from ..insights.carried import carry_ratings
from ..insights.rows import _PRIVATE, cited_docs, masked, policy_answer, reviewed_question, without_memory_search
from ..types import AskTrace
from .question_log import keep_days

TOLD_ONLY = "记住个人信息：不检索"  # the answerer of a turn that only told, in versions without `outcome`


def move_old_ratings(assistant: Any) -> list[str]:
    """Copy the catalog's old ratings into the insights log, then drop them there; the store notices to show."""
    rows = old_ratings(assistant.catalog)
    if rows is None:
        return []
    days = keep_days(assistant.settings)
    cutoff = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds") if days > 0 else "\uffff"
    kept = [prepared(row) for row in rows if str(row["created_at"]) >= cutoff]
    try:
        moved = carry_ratings(assistant.insight_log, kept) if kept else 0
    except StoreDamaged as damage:  # the copy stays in the catalog until the insights log can take it
        return [f"旧版本保存在文档目录里的 {len(rows)} 条评价这次没能移到反馈审阅：{damage}"]
    drop_old_ratings(assistant.catalog)
    left = len(rows) - len(kept)
    if not moved and not left:  # nothing to move (an empty table, or a copy the log already held): nothing to say
        return []
    said = f"已把旧版本保存在文档目录里的 {moved} 条评价移到反馈审阅"
    if left:
        said += (f"；{left} 条没有移入：设置为不记录提问" if days <= 0 else f"；{left} 条早于提问保留期（{days:g} 天）") + "，已删除"
    return [said]


def _trace(raw: dict[str, Any]) -> AskTrace:
    """The stored trace as a record, for the rules a rating kept today follows (its memories are never read)."""
    try:
        return trace_from_dict({k: v for k, v in raw.items() if k != "memories"})
    except (TypeError, ValueError):  # a shape no version wrote: its question and answer only
        return AskTrace(question=str(raw.get("question", "")), answer=str(raw.get("answer", "")),
                        search=trace_from_dict({}).search, memories=[], prompt="", sources=[], prompt_tokens=0,
                        token_budget=0, dropped_hits=0, answerer="")


def prepared(row: dict[str, Any]) -> dict[str, Any]:
    """One old row as the insights log keeps a rating (`carry_ratings`)."""
    try:
        raw = json.loads(row["trace"] or "{}")
    except ValueError:
        raw = {}
    raw = raw if isinstance(raw, dict) else {}
    raw.setdefault("question", str(row["question"]))
    trace = _trace(raw)
    question, answer = _reviewed(trace, raw)
    kept = {k: v for k, v in raw.items() if k not in _PRIVATE}
    kept["question"], kept["answer"] = question, answer
    if not question:
        kept["search_question"] = ""
    if raw.get("memory_search"):
        without_memory_search(kept, trace.search_question or trace.question)
    kept = masked(kept)
    clauses = [h for key in ("hits", "near_misses") for h in kept.get(key) or [] if isinstance(h, dict)]
    audiences = revealed(kept)
    if any("audience" not in h for h in clauses):  # kept before audiences were: administrators only
        audiences = sorted({*audiences, UNKNOWN})
    best = clauses[0] if clauses else {}
    nearest = {k: best.get(k) for k in ("chunk_id", "doc_id", "title", "section")} if best else {}
    if best:
        nearest.update(text=str(best.get("text", ""))[:160], audience=best.get("audience", list(UNKNOWN)))
    return {"created_at": str(row["created_at"]), "user": str(row["user_id"]), "question": redact_text(question),
            "answer": redact_text(answer), "rating": int(row["rating"] or 0), "docs": cited_docs(trace),
            "trace": kept, "nearest": nearest if int(row["rating"] or 0) < 0 else {}, "audiences": audiences}


def _reviewed(trace: AskTrace, raw: dict[str, Any]) -> tuple[str, str]:
    """The question and answer HR reviews: as a rating kept today (`reviewed_question`, `policy_answer`), and for a
    trace kept before those marks (no `outcome`, no `engine_tail`) by what it did keep (`_told`)."""
    if raw.get("outcome") or raw.get("engine_tail") or not _told(trace, raw):
        return reviewed_question(trace), policy_answer(trace)
    if str(raw.get("answerer") or "") == TOLD_ONLY:
        return "", ""
    remembered = _remembered(raw)
    return str(raw.get("search_question") or ""), _without_reply(trace.answer, remembered)


def _remembered(raw: dict[str, Any]) -> list[str]:
    told = raw.get("acknowledged")
    return [str(m.get("content", "")) for m in told if isinstance(m, dict)] if isinstance(told, list) else []


def _told(trace: AskTrace, raw: dict[str, Any]) -> bool:
    """Did this old turn tell something about the asker: it remembered something, it only told, or its answer ends
    with the engine's reply to a statement (one that kept nothing says so too)."""
    answer = trace.answer.rstrip()
    return (bool(_remembered(raw)) or str(raw.get("answerer") or "") == TOLD_ONLY
            or any(answer.endswith(line) for line in (acknowledgement([]), acknowledgement([], failure="-"))))


def _without_reply(answer: str, remembered: list[str]) -> str:
    """The answer without the engine's reply to the statement: that reply as the engine writes it, else (a wording
    of an older version) from the first paragraph that repeats what was remembered."""
    answer = answer.rstrip()
    for line in (acknowledgement(remembered), acknowledgement([]), acknowledgement([], failure="-")):
        if answer.endswith(line):
            return answer[: -len(line)].rstrip()
    said = [second_person(m) for m in remembered if m.strip()] + [m.strip() for m in remembered if m.strip()]
    paragraphs = answer.split("\n\n")
    for number, paragraph in enumerate(paragraphs):
        if any(s in paragraph for s in said):
            return "\n\n".join(paragraphs[:number]).rstrip()
    return answer
