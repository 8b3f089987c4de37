"""The session eval: whole conversations written by people who never read the engine, asked offline.

Each session starts on a copy of its corpus's store (built once per corpus under
the work dir, with the shipped models) and asks its turns in one conversation of
its own user, uploading files where the session does. Prints the acceptance
figures and a table per kind of turn.

    .venv/bin/python bench/sessions.py [--work-dir DIR] [--set open|fresh|followups|switches|sealed] [--failures] [--json FILE]

The sealed part is run once per stop for its figures: `--set sealed` prints
aggregates only and refuses `--failures` (nobody reads its failures). The fresh
part is a validation part: run as often as needed to check a rule written on the
open set, its aggregates only, never its failures. Two more validation parts hold
follow-ups and topic switches: followups (stop 54, 24 conversations on corpora already
in the repository) and switches (stop 58, on two corpora new to it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from bench.common import ROOT, load_average, table  # noqa: E402
from rag_core.assistant import Assistant  # noqa: E402
from rag_core.evaluation.sessions import KINDS, failed_checks, load_sessions, run_session, summarise  # noqa: E402
from rag_core.search.embedding import load_embedder, load_second_embedder  # noqa: E402
from rag_core.settings import Settings  # noqa: E402

SESSIONS = ROOT / "tests" / "data" / "sessions"
SETS = {
    "open": SESSIONS / "open.jsonl",
    "fresh": SESSIONS / "fresh" / "fresh.jsonl",
    "sealed": SESSIONS / "sealed" / "sealed.jsonl",
    "followups": SESSIONS / "followups" / "followups.jsonl",  # stop 54: follow-ups and topic switches, validation
    "switches": SESSIONS / "switches",  # stop 58: follow-ups and switches on two more corpora, validation (every .jsonl)
}
NOT_POLICIES = ("SOURCE.md", "README.md")  # a corpus folder's notes on its sources, not a policy
FIGURES_ONLY = ("fresh", "sealed", "followups", "switches")  # parts whose failures nobody on the team reads
CHECK_NAMES = ("as_typed", "must_contain", "top3", "cited", "sure", "quoted", "lead", "verdict", "verdict_wrong", "memory",
               "remembered", "refused", "confident")


def corpus_dir(corpus: str) -> Path:
    """Where a session's corpus lives: samples, real/<name>, fresh/<name> or sealed/<name>."""
    if corpus == "samples":
        return ROOT / "data" / "samples"
    kind, _, name = corpus.partition("/")
    if kind == "real":
        return ROOT / "tests" / "data" / "real" / name / "policies"
    if kind in ("fresh", "sealed"):
        return SESSIONS / kind / "corpora" / name
    raise ValueError(f"unknown corpus {corpus!r}")


def set_sessions(path: Path) -> list[dict]:
    """A set's sessions: one JSONL file, or every .jsonl of a folder (a part written by several authors)."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    return [session for file in files for session in load_sessions(file)]


def policy_files(corpus: str) -> list[Path]:
    """The corpus's policy texts: every .md but the notes on where they came from."""
    return [p for p in sorted(corpus_dir(corpus).glob("*.md")) if p.name not in NOT_POLICIES]


class Stores:
    """One base store per corpus (ingested once), copied for each session; the models loaded once."""

    def __init__(self, work: Path):
        self.work = work
        base = Settings.from_env(data_dir=work / "probe", env_file=None, llm_base_url="")
        self.embedder = load_embedder(base.embedding_model)
        self.second = load_second_embedder(base.second_embedding_model, base.embedding_model)

    def _open(self, data_dir: Path) -> Assistant:
        settings = Settings.from_env(data_dir=data_dir, env_file=None, llm_base_url="")
        return Assistant(settings, embedder=self.embedder, second_embedder=self.second, llm=None)

    def for_session(self, corpus: str, session_id: str) -> Assistant:
        base = self.work / "base" / corpus.replace("/", "__")
        if not (base / ".complete").exists():
            shutil.rmtree(base, ignore_errors=True)
            assistant = self._open(base)
            for path in policy_files(corpus):
                report = assistant.ingest_file(path)
                if not report.ok:
                    raise SystemExit(f"{corpus}: {path.name} refused: {report.error}")
            assistant.memory.close()
            del assistant
            (base / ".complete").write_text("ok")
        run = self.work / "runs" / session_id
        shutil.rmtree(run, ignore_errors=True)
        shutil.copytree(base, run)
        return self._open(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, default=None, help="keeps the corpus stores between runs")
    parser.add_argument("--set", choices=sorted(SETS), default="open")
    parser.add_argument("--failures", action="store_true", help="list every failed check (open set only)")
    parser.add_argument("--json", type=Path, default=None, help="write the summary (and, open set, the turns) here")
    args = parser.parse_args()
    if args.failures and args.set in FIGURES_ONLY:
        raise SystemExit(f"the {args.set} part is read for its figures only: no --failures")
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="sessions_"))
    stores = Stores(work)
    sessions = set_sessions(SETS[args.set])
    started = time.perf_counter()
    results = []
    for session in sessions:
        assistant = stores.for_session(session["corpus"], session["id"])
        results += run_session(assistant, session, SESSIONS)
        assistant.memory.close()
    seconds = time.perf_counter() - started
    summary = summarise(results)
    print(f"{args.set} set: {summary['sessions']} sessions, {summary['turns']} turns typed; "
          f"{seconds:.0f} s; load average {load_average()[0]:.2f}")
    print(table(["measure", "rate", "turns"],
                [[a["label"], "—" if a["rate"] is None else f"{a['rate']:.2f}", a["n"]]
                 for a in summary["acceptance"].values()]))
    print()
    rows = []
    for kind in KINDS:
        if kind in summary["per_kind"]:
            row = summary["per_kind"][kind]
            rows.append([kind, row["turns"], *("" if row.get(c) is None else f"{row[c]:.2f}" for c in CHECK_NAMES)])
    print(table(["kind", "turns", *CHECK_NAMES], rows))
    if args.failures:
        print()
        for r in results:
            failed = failed_checks(r.checks)
            if failed:
                print(f"{r.session} #{r.index} [{r.kind}] {r.say} → {r.searched} : {', '.join(failed)}")
    if args.json:
        data = {"set": args.set, "summary": summary}
        if args.set == "open":
            data["turns"] = [vars(r) for r in results]
        args.json.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
