"""Follow-up eval: the last turn of each dialogue, asked in its conversation, vs the same question asked standalone.

Each JSONL row: {"id", "turns": [2 or 3 questions], "standalone": the last question
written out in full, "expected": substrings of the clause that answers the last turn}.
Three recall@3 figures per run: the last turn as the conversation searches it
(rewritten), the same question asked standalone (the goal: within 0.05), and the
last turn searched as typed (what happened before follow-ups were understood).
"""

from __future__ import annotations

import json
from pathlib import Path

from .metrics import first_relevant_rank
from .runner import EVAL

K = 3


def load_dialogues(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        if not (2 <= len(row.get("turns", [])) <= 3) or not row.get("expected") or not row.get("standalone"):
            raise ValueError(f"{path}:{n}: 需要 2–3 个 turns、standalone 和 expected")
        rows.append(row)
    return rows


def _rank(result, expected: list[str]) -> int | None:
    return first_relevant_rank([h.chunk.text for h in result.hits], [expected])


def run_followups(assistant, path: Path, *, role: str = "all") -> dict:
    """Ask every dialogue in its own conversation (no user, no memory) and score the last turn."""
    results = []
    for row in load_dialogues(path):
        conversation = f"eval-followup-{assistant.new_conversation_id()}"
        trace = None
        for question in row["turns"]:
            trace = assistant.ask(question, user="", role=role, remember=False, conversation=conversation,
                                  traffic=EVAL)
        assistant.delete_conversation(conversation)
        last = row["turns"][-1]
        results.append({
            "id": row["id"], "question": last, "search_question": trace.search_question,
            "standalone": row["standalone"],
            "rank": _rank(trace.search, row["expected"]),
            "standalone_rank": _rank(assistant.search(row["standalone"], role=role), row["expected"]),
            "raw_rank": _rank(assistant.search(last, role=role), row["expected"]),
        })  # fmt: skip
    n = len(results) or 1

    def recall(key: str) -> float:
        return round(sum(1 for r in results if r[key] is not None and r[key] <= K) / n, 3)

    summary = {
        "dialogues": len(results),
        "followup_recall@3": recall("rank"),
        "standalone_recall@3": recall("standalone_rank"),
        "as_typed_recall@3": recall("raw_rank"),
        "rewritten": sum(1 for r in results if r["search_question"] != r["question"]),
    }
    summary["gap"] = round(summary["standalone_recall@3"] - summary["followup_recall@3"], 3)
    return {"metrics": summary, "results": results}


def followup_table(metrics: dict, label: str) -> str:
    """One Markdown row per run (the docs table)."""
    return (
        f"| {label} | {metrics['dialogues']} | {metrics['followup_recall@3']:.2f} | {metrics['standalone_recall@3']:.2f} "
        f"| {metrics['gap']:+.2f} | {metrics['as_typed_recall@3']:.2f} | {metrics['rewritten']} |"
    )
