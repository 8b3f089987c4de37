"""Rated answers stored before HR's review left out what the asker told about themself: cleaned once, on open.

A turn that both told and asked (我常驻杭州，出差住宿标准是多少？) stored a memory; its rating kept the memory
(`acknowledged`), the engine's line repeating it (`engine_tail`) and that line at the end of the answer, and a turn
that only told kept its words as the question. `rows.reviewed_trace` and the facade keep none of it now; this
step takes it out of the rows an older version wrote, so neither an undo nor a 被遗忘权 purge leaves it with HR.
"""

from __future__ import annotations

import json
import sqlite3

from ..text.shown import without_tail
from ..types import ACKNOWLEDGED


def scrub_told(db: sqlite3.Connection) -> int:
    """Clean every feedback row that kept what was told (inside the caller's transaction); returns how many."""
    rows = db.execute("SELECT id, question, answer, trace FROM feedback"
                      " WHERE trace LIKE '%\"acknowledged\"%' OR trace LIKE '%\"engine_tail\"%'").fetchall()
    for row_id, question, answer, trace in rows:
        data = json.loads(trace) if trace else {}
        tail = str(data.pop("engine_tail", "") or "")
        data.pop("acknowledged", None)
        told_only = data.get("outcome") == ACKNOWLEDGED  # it asked nothing: its words and its reply go
        typed = str(data.get("question", "") or "")
        # a turn that told and asked, rated after turns that showed restricted clauses, kept its typed words (the
        # statement) as the question: which part was asked is the statement split's, no step of this store's, and
        # its search question may carry the restricted words, so nothing is kept (nor the vector of those words)
        kept_told = bool(tail) and bool(question) and question == typed and typed != data.get("search_question")
        if kept_told:
            question = ""
        if told_only:
            question = answer = ""
            data.update({key: "" for key in ("question", "search_question", "answer") if key in data})
        elif tail:
            answer = without_tail(answer, tail)
            data["answer"] = without_tail(str(data.get("answer", "")), tail)
            if data.get("question"):  # the typed question held the statement: the searched one stays
                data["question"] = data.get("search_question") or data["question"]
        db.execute("UPDATE feedback SET question = ?, answer = ?, trace = ?,"
                   " model = CASE WHEN ? THEN NULL ELSE model END, vector = CASE WHEN ? THEN NULL ELSE vector END"
                   " WHERE id = ?", (question, answer, json.dumps(data, ensure_ascii=False), told_only or kept_told,
                                     told_only or kept_told, row_id))
    return len(rows)
