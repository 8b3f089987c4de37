"""A question file run by path (the CLI's eval, the page's path box) with a raw U+2028 inside a question runs: the
runner's line count for refusals split it with str.splitlines and zip(strict=True) raised an English ValueError."""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant_with_samples

from rag_core.evaluation.runner import run_eval


def test_a_set_with_a_raw_line_separator_runs_by_path(tmp_path: Path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    path = tmp_path / "set.jsonl"
    rows = [{"question": "年假有几天？\u2028（从网页复制）", "category": "literal", "expected": ["年假"]},
            {"question": "病假工资怎么算？\u0085", "category": "literal", "expected": ["病假"]}]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    report = run_eval(assistant, path, ask=False)
    assert report, report
