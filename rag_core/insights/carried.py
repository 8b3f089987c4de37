"""Ratings an older version kept elsewhere (the catalog's old `feedback` table), added to the insights log once.

The facade prepares each row (masked, without what the asker's memories held, with its audiences) and calls
`carry_ratings`; the catalog's table is dropped only after this commit. A crash between the two copies nothing twice:
a row is left out when the log already holds it (the same time, person and question, or the same person's rating of
the same conversation turn), checked inside the one write transaction, so two starts at once add it once too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .log import InsightLog
from .records import PERSON

_HELD = ("SELECT 1 FROM feedback WHERE user_id = ? AND ((created_at = ? AND question = ?)"
         " OR (? != '' AND json_extract(trace, '$.conversation') = ? AND json_extract(trace, '$.turn') = ?)) LIMIT 1")


def carry_ratings(log: InsightLog, rows: Sequence[dict[str, Any]]) -> int:
    """Add each row the log does not hold yet, in one transaction; how many were added. Rows newest first: of several
    old rows of one turn (each click was a row), the latest is the one kept."""
    added = 0
    with log.transaction() as db:
        for row in rows:
            trace = row["trace"]
            conversation, turn = str(trace.get("conversation") or ""), trace.get("turn") or 0
            if db.execute(_HELD, (row["user"], row["created_at"], row["question"], conversation if turn else "",
                                  conversation, int(turn))).fetchone():
                continue
            db.execute(
                "INSERT INTO feedback (created_at, user_id, question, answer, rating, reason, comment, docs, trace,"
                " nearest, model, vector, audiences, traffic) VALUES (?,?,?,?,?,'','',?,?,?,NULL,NULL,?,?)",
                (row["created_at"], row["user"], row["question"], row["answer"], 1 if row["rating"] > 0 else -1,
                 json.dumps(list(row["docs"]), ensure_ascii=False), json.dumps(trace, ensure_ascii=False),
                 json.dumps(row["nearest"], ensure_ascii=False),
                 json.dumps([list(a) for a in row["audiences"]], ensure_ascii=False), PERSON),
            )
            added += 1
    return added
