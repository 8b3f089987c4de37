"""Usage: how often each document was quoted, which never were, questions per day."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .days import local_day

WINDOWS = (30, 90)  # days


def usage_report(questions: Sequence[dict[str, Any]], documents: Iterable[tuple[str, str]], now: datetime,
                 zone: tzinfo | None = None) -> dict:
    """Per document (id, title): citations in the last 30/90 days and in all kept history; never-cited ones; per day.

    Days are the office's (`zone`; UTC when none): rows are stamped in UTC.

    `questions` are log rows (`asked_at`, `cited_docs`, `outcome`); `documents` the live documents.
    """
    cutoffs = {days: (now - timedelta(days=days)).isoformat(timespec="seconds") for days in WINDOWS}
    counts = {days: Counter() for days in WINDOWS}
    ever: Counter[str] = Counter()
    per_day: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    for row in questions:
        per_day[local_day(row["asked_at"], zone)] += 1
        outcomes[row["outcome"]] += 1
        for doc in set(row["cited_docs"]):
            ever[doc] += 1
            for days, cutoff in cutoffs.items():
                if row["asked_at"] >= cutoff:
                    counts[days][doc] += 1
    docs = list(documents)
    rows = [
        {"doc_id": doc_id, "title": title, **{f"cited_{d}d": counts[d][doc_id] for d in WINDOWS}, "cited_total": ever[doc_id]}
        for doc_id, title in docs
    ]
    rows.sort(key=lambda r: (-r["cited_30d"], -r["cited_total"], r["doc_id"]))
    return {
        "documents": rows,
        "never_cited": [{"doc_id": d, "title": t} for d, t in docs if not ever[d]],
        "per_day": [{"day": day, "questions": n} for day, n in sorted(per_day.items())],
        "outcomes": dict(outcomes),
        "questions": len(questions),
    }

