"""Usage: how often each document was quoted, which never were, questions per day.

Over the whole retention the counts are per 30/90 days before now and in all kept questions. With a window of days
(`since`/`until`) the questions are the window's only, so every count and the never-cited list are about the window
and say so (`cited_window`, 所选时间内): "近30天" read from an old window's rows gave 0 for a policy cited today, and
listed it as never cited (rev-own2 D1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from .days import local_day
from .export import to_csv
from .records import OUTCOMES

WINDOWS = (30, 90)  # days
WINDOW_COUNT = "cited_window"  # a window's report: citations within it, in place of the 30/90-day columns
NEVER_CITED = {False: "从未引用", True: "所选时间内未被引用"}  # the export's sheet, by whether a window was given
# what became of the questions, in the 使用情况 page's order and words (a weak answer was still answered): the page and
# the CLI show the report's `outcome_rows`, so they cannot name them differently
USAGE_OUTCOMES = {key: OUTCOMES[key] for key in ("answered", "weak", "standard", "refused", "zero_hit")} | {
    "weak": "已回答（依据较弱）"}
MAX_DAYS = 3660  # the per-day table's longest run of days (a retention of 100 years would chart 36,500 bars)


def usage_report(questions: Sequence[dict[str, Any]], documents: Iterable[tuple[str, str]], now: datetime,
                 zone: tzinfo | None = None, *, since: date | None = None, until: date | None = None,
                 keep_days: float | None = None) -> dict:
    """Per document (id, title): citations in the last 30/90 days and in all `questions`; never-cited ones; per day.
    With a window (`since` or `until`), `questions` are the window's: per document only the citations in it
    (`cited_window`), never-cited means not cited in it, and `window` names its ends (None without one).

    Days are the office's (`zone`; UTC when none): rows are stamped in UTC. `per_day` has every day from `since`
    (else the first question's day) to `until` (else today), a day nobody asked 0 — a week without questions was
    drawn as two bars side by side — bounded by the retention (`keep_days`: nothing older is kept) and today.

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
    windowed = since is not None or until is not None
    if windowed:  # the days before now say nothing about a window's rows
        rows = [{"doc_id": doc_id, "title": title, WINDOW_COUNT: ever[doc_id]} for doc_id, title in docs]
        rows.sort(key=lambda r: (-r[WINDOW_COUNT], r["doc_id"]))
    else:
        rows = [{"doc_id": doc_id, "title": title, **{f"cited_{d}d": counts[d][doc_id] for d in WINDOWS},
                 "cited_total": ever[doc_id]} for doc_id, title in docs]
        rows.sort(key=lambda r: (-r["cited_30d"], -r["cited_total"], r["doc_id"]))
    return {
        "window": {"since": since and since.isoformat(), "until": until and until.isoformat()} if windowed else None,
        "documents": rows,
        "never_cited": [{"doc_id": d, "title": t} for d, t in docs if not ever[d]],
        "per_day": [{"day": day, "questions": per_day.get(day, 0)}
                    for day in _days(per_day, now.astimezone(zone).date() if zone else now.date(), since, until,
                                     keep_days)],
        "outcomes": dict(outcomes),
        "outcome_rows": [{"outcome": key, "label": USAGE_OUTCOMES.get(key, key), "questions": outcomes[key]}
                         for key in [*USAGE_OUTCOMES, *sorted(set(outcomes) - set(USAGE_OUTCOMES))] if key in outcomes],
        "questions": len(questions),
    }


def _days(counted: Mapping[str, int], today: date, since: date | None, until: date | None,
          keep_days: float | None) -> list[str]:
    """Every day of the window as 'YYYY-MM-DD', oldest first: the counted days, and the days between them and the
    window's ends that nobody asked on (none before the retention's first day, none after today)."""
    known = sorted(counted)
    first = since or (date.fromisoformat(known[0]) if known else None)
    last = min(until or today, today)
    if keep_days is not None and keep_days > 0 and first is not None:
        first = max(first, today - timedelta(days=int(-(-keep_days // 1))))
    if first is None or first > last:
        return known
    first = max(first, last - timedelta(days=MAX_DAYS - 1))
    filled = {(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)}
    return sorted(filled | set(known))


def sections_csv(sheets: Mapping[str, Sequence[Mapping[str, Any]]]) -> bytes:
    """Several tables in one CSV file (UTF-8 with one BOM), each under a line with its name in 【】 and apart by a
    blank line: a usage CSV held only its first table, and said nothing of the other two."""
    parts = []
    for name, rows in sheets.items():
        body = to_csv(rows).decode("utf-8").removeprefix("\ufeff") if rows else "（无）\r\n"
        parts.append(f"【{name}】\r\n{body}")
    return ("\ufeff" + "\r\n".join(parts)).encode("utf-8")
