"""Follow-up recall@3 vs the same questions asked standalone (tests/data/followups.jsonl on the samples).

    .venv/bin/python bench/followups.py                 # offline rules, a fresh store of the samples
    .venv/bin/python bench/followups.py --data-dir D     # an existing store
    .venv/bin/python bench/followups.py --llm-base-url http://127.0.0.1:8080/v1 --llm-model M   # LLM rewrite
    ... --llm-model M --rewrite-only   # the model rewrites follow-ups; every answer is the offline one

--rewrite-only measures what the table is about (which question gets searched) without waiting for a
small local model to write an answer to every earlier turn: the rewrite sees the same questions and
the offline answers instead of the model's.

Prints the docs/retrieval.md table row and, with --json, every dialogue.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rag_core import Assistant, Settings  # noqa: E402
from rag_core.evaluation.followups import followup_table, run_followups  # noqa: E402

DIALOGUES = ROOT / "tests" / "data" / "followups.jsonl"


def _answer_offline() -> None:
    """Every answer by the offline answerer; the configured model is still used to rewrite follow-ups."""
    import rag_core.assistant as assistant_module

    compose = assistant_module.compose_answer

    def offline(asked, built, _llm, *args, **kwargs):  # whatever else ask passes (facts, closeness, typed) stays
        return compose(asked, built, None, *args, **kwargs)

    assistant_module.compose_answer = offline


def _count_model_rewrites() -> dict:
    """How many follow-ups the model itself rewrote usably (the rest fell back to the rules)."""
    import rag_core.facade.conversations as conversations_module

    counts = {"asked": 0, "used": 0}
    rewrite = conversations_module.llm_rewrite

    def counted(*args, **kwargs):
        result = rewrite(*args, **kwargs)
        counts["asked"] += 1
        counts["used"] += result.by_model
        return result

    conversations_module.llm_rewrite = counted
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(DIALOGUES))
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--llm-base-url", default="")
    parser.add_argument("--llm-model", default="")
    parser.add_argument("--rewrite-only", action="store_true", help="the LLM rewrites; answers stay offline")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per model call")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="followups_"))
    llm = {"llm_api_key": "local", "llm_model_id": args.llm_model, "llm_base_url": args.llm_base_url} if args.llm_model else {}
    if llm:
        llm["llm_timeout_s"] = args.timeout
    assistant = Assistant(Settings(data_dir=data_dir, **llm))
    assistant.ensure_samples()
    if args.rewrite_only and args.llm_model:
        _answer_offline()
    counts = _count_model_rewrites() if args.llm_model else None
    report = run_followups(assistant, Path(args.file))
    label = f"LLM 改写（{args.llm_model}）" if args.llm_model else "离线规则改写"
    if args.rewrite_only and args.llm_model:
        label += "，回答离线"
    print("| 改写方式 | 对话数 | 追问 recall@3 | 同一问题单独问 recall@3 | 差距 | 追问原样检索 recall@3 | 被改写的追问 |")
    print("|---|---|---|---|---|---|---|")
    print(followup_table(report["metrics"], label))
    if counts is not None:
        print(f"\n模型被请求改写 {counts['asked']} 次，给出可用改写 {counts['used']} 次（其余按离线规则改写）")
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        for r in report["results"]:
            if r["rank"] is None or r["rank"] > 3:
                print(f"- {r['id']}: {r['question']} → {r['search_question']} (rank {r['rank']}, standalone {r['standalone_rank']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
