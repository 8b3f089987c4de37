"""Pure metrics for a JSONL question set (no IO beyond reading the file).

Each line: {"question", "category": literal|paraphrase|near_miss|absent, "expected": [substrings]}.
A hit is relevant when its text holds every expected substring. Per category we
report recall@1/3/5, MRR and the zero-hit rate (the number that matters for
absent questions: the share that correctly got nothing).
"""

from __future__ import annotations

import json
from pathlib import Path

CATEGORIES = ("literal", "paraphrase", "near_miss", "absent")


def load_questions(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: 不是合法的 JSON（{exc.msg}）") from exc
        if "question" not in row or row.get("category") not in CATEGORIES:
            raise ValueError(f"{path}:{n}: 需要 question 和 category（{'/'.join(CATEGORIES)}）")
        row.setdefault("expected", [])
        rows.append(row)
    return rows


def first_relevant_rank(texts: list[str], expected: list[str]) -> int | None:
    """1-based rank of the first text holding every expected substring."""
    if not expected:
        return None
    for rank, text in enumerate(texts, start=1):
        if all(e in text for e in expected):
            return rank
    return None


def summarise(results: list[dict]) -> dict[str, dict[str, float]]:
    metrics: dict[str, dict[str, float]] = {}
    for cat in CATEGORIES:
        rows = [r for r in results if r["category"] == cat]
        if not rows:
            continue
        m: dict[str, float] = {"n": len(rows)}
        with_expected = [r for r in rows if r["expected"]]
        if with_expected:
            for k in (1, 3, 5):
                m[f"recall@{k}"] = round(
                    sum(1 for r in with_expected if r["rank"] is not None and r["rank"] <= k) / len(with_expected), 3
                )
            m["mrr"] = round(sum(1 / r["rank"] for r in with_expected if r["rank"]) / len(with_expected), 3)
        m["zero_hit_rate"] = round(sum(1 for r in rows if r["hit_count"] == 0) / len(rows), 3)
        metrics[cat] = m
    return metrics


def metrics_table(metrics: dict[str, dict[str, float]]) -> str:
    """Markdown table of the per-category metrics."""
    cols = ["n", "recall@1", "recall@3", "recall@5", "mrr", "zero_hit_rate"]
    lines = ["| category | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for cat, m in metrics.items():
        cells = [f"{m[c]:g}" if c in m else "–" for c in cols]
        lines.append(f"| {cat} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
