"""The offline answer on the question sets: answered, the gold clause cited, the gold wording in the first sentence.

    .venv/bin/python bench/answer_sets.py --work-dir DIR [--corpus NAME ...] [--json FILE]

The sessions (`bench/sessions.py`) are the only other place the answer's lead is measured, and the lead
rules were tuned on their open part. The question sets were written by helpers who never read the
engine and were used to fit the search's decision, never the answer step, so they check the answer on
about 370 questions over nine corpora. DIR is a `bench/fit_answerability.py --work-dir DIR` run's: each
corpus store it built is copied (asking writes logs) and asked every literal and paraphrase question
through `Assistant.ask`, the same path as chat, offline. Per corpus: answered (not refused), top 3
(a hit holds the gold wording), cited (a quoted source holds it), lead (the first quoted sentence holds it).
A second table asks the near-keyword traps (near_miss rows marked answer_should_refuse, as the question
sets' own metrics count them) and the absent questions: the share answered confidently, neither refused
nor marked weak (lower is better), as `bench/sessions.py` counts a trap. Asking them doubles the run time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import table  # noqa: E402

MEASURES = ("answered", "top3", "cited", "lead")
UNANSWERABLE = ("near_miss", "absent")  # categories no clause answers: answering them confidently is the failure


def holds(text: str, alternatives: list[list[str]]) -> bool:
    """Some alternative's every piece is in `text` (the question sets' own rule, `first_relevant_rank`), with
    spaces and [资料N] markers ignored on both sides."""
    from rag_core.evaluation.metrics import first_relevant_rank
    from rag_core.evaluation.sessions import _flat

    return first_relevant_rank([_flat(text)], [[_flat(piece) for piece in alt] for alt in alternatives]) is not None


def ask_corpus(name: str, store: Path, questions: Path, scratch: Path) -> list[dict]:
    from rag_core.assistant import Assistant
    from rag_core.evaluation.metrics import load_questions
    from rag_core.evaluation.sessions import cited_texts, first_sentence
    from rag_core.types import REFUSED, WEAK

    copy = scratch / name.replace("/", "__")
    # the store's own files only: a corpus folder also holds the single-document stores built beside it
    shutil.copytree(store, copy, ignore=lambda d, names: [n for n in names if Path(d) == store
                                                         and (store / n).is_dir() and n != "chroma"])
    assistant = Assistant.open(data_dir=copy, env_file=None, llm_base_url="")  # offline
    rows = []
    for row in load_questions(questions):
        if row["category"] == "absent" or (row["category"] == "near_miss" and row.get("answer_should_refuse")):
            trace = assistant.ask(row["question"], user="bench", remember=False, traffic="eval")
            rows.append({"corpus": name, "question": row["question"], "category": row["category"],
                         "confident": trace.outcome not in (REFUSED, WEAK)})
            continue
        if row["category"] not in ("literal", "paraphrase") or not row["alternatives"]:
            continue
        trace = assistant.ask(row["question"], user="bench", remember=False, traffic="eval")
        answered = trace.outcome != REFUSED
        gold = row["alternatives"]
        rows.append({
            "corpus": name, "question": row["question"], "category": row["category"], "answered": answered,
            "top3": any(holds(h.chunk.text, gold) for h in trace.search.hits[:3]),
            "cited": answered and any(holds(text, gold) for text in cited_texts(trace)),
            "lead": answered and holds(first_sentence(trace.answer), gold),
        })
    assistant.memory.close()
    return rows


def summary_rows(rows: list[dict], groups: dict[str, list[str]]) -> list[list]:
    out = []
    for label, names in groups.items():
        mine = [r for r in rows if r["corpus"] in names and r["category"] not in UNANSWERABLE]
        if mine:
            rates = [sum(r[m] for r in mine) / len(mine) for m in MEASURES]
            cited = sum(r["cited"] for r in mine)
            out.append([label, len(mine), *(f"{x:.2f}" for x in rates),
                        f"{sum(r['lead'] for r in mine) / cited:.2f}" if cited else "—"])
    return out


def confident_rows(rows: list[dict], groups: dict[str, list[str]]) -> list[list]:
    """Per group: how many traps and absent questions, and the share of each answered confidently."""
    out = []
    for label, names in groups.items():
        cells = []
        for category in UNANSWERABLE:
            mine = [r for r in rows if r["corpus"] in names and r["category"] == category]
            cells += [len(mine), f"{sum(r['confident'] for r in mine) / len(mine):.2f}" if mine else "—"]
        out.append([label, *cells])
    return out


def main() -> None:
    import fit_answerability as fa

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, required=True, help="a bench/fit_answerability.py work dir")
    parser.add_argument("--corpus", nargs="*", default=None, help="corpora to ask (default: every multi-document one)")
    parser.add_argument("--json", type=Path, default=None, help="write every question's marks here")
    args = parser.parse_args()
    every = fa.corpora()
    names = args.corpus or [n for n in every if "/" not in n]
    missing = [n for n in names if not (args.work_dir / n / "catalog.sqlite3").exists()]
    if missing:
        raise SystemExit(f"no store for {', '.join(missing)} in {args.work_dir}: run bench/fit_answerability.py "
                         f"--work-dir {args.work_dir} first")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="answer_sets_") as scratch:
        for name in names:
            rows += ask_corpus(name, args.work_dir / name, every[name][1], Path(scratch))
    groups = {n: [n] for n in names}
    groups["fitted corpora (the search's decision)"] = [n for n in names if fa.group_of(n) not in fa.HELD_OUT]
    groups["never fitted"] = [n for n in names if fa.group_of(n) in fa.HELD_OUT]
    groups["all"] = names
    print(table(["corpus", "questions", *MEASURES, "lead when cited"], summary_rows(rows, groups)))
    print()
    print(table(["corpus", "traps", "traps answered confidently", "absent", "absent answered confidently"],
                confident_rows(rows, groups)))
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
