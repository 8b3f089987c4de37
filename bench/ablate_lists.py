"""Ablation of the hand lists: empty one at a time and run the open sessions (issue 30, F).

    .venv/bin/python bench/ablate_lists.py --work-dir DIR [--set open|fresh] [--list NAME ...]

Each run sets one module constant to an empty value (in every rag_core module that holds it)
before any session is asked, then prints one JSON line of the acceptance figures. `none` is the
shipped engine. `--set fresh` runs the validation part, written by someone who never read the
engine and whose failures nobody reads: a list's gain there is a gain on sessions it was not written
against. The sealed set is never used here.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import run_child  # noqa: E402

LISTS = {
    "followup.PRONOUNS": ("rag_core.conversations.followup", "PRONOUNS", ()),
    "followup.LEADS": ("rag_core.conversations.followup", "LEADS", ()),
    "followup.CONTRASTS": ("rag_core.conversations.followup", "CONTRASTS", ()),
    "followup.PLACEHOLDERS": ("rag_core.conversations.followup", "PLACEHOLDERS", frozenset()),
    "followup.PROCEDURES": ("rag_core.conversations.followup", "PROCEDURES", ()),
    "subject._SITUATIONS": ("rag_core.answer.subject", "_SITUATIONS", ()),
    "subject._OCCASIONS": ("rag_core.answer.subject", "_OCCASIONS", frozenset()),
    "subject._GENERIC": ("rag_core.answer.subject", "_GENERIC", frozenset()),
    "subject._SUFFIX_CHARS": ("rag_core.answer.subject", "_SUFFIX_CHARS", frozenset()),
    "subject._VALUE_FILLERS": ("rag_core.answer.subject", "_VALUE_FILLERS", frozenset()),
    "vocabulary.QUALIFIERS": ("rag_core.text.vocabulary", "QUALIFIERS", frozenset()),
    "vocabulary.BENEFIT_SUFFIXES": ("rag_core.text.vocabulary", "BENEFIT_SUFFIXES", ()),
    "vocabulary.NOT_BENEFITS": ("rag_core.text.vocabulary", "NOT_BENEFITS", frozenset()),
    "vocabulary.ALLOWANCE_SUFFIXES": ("rag_core.text.vocabulary", "ALLOWANCE_SUFFIXES", ()),
}


def empty(name: str) -> None:
    """Replace the list in its module and in every rag_core module that imported the same object.

    `LIST-ITEM` (vocabulary.BENEFIT_SUFFIXES-费) takes out that one item instead of emptying the list.
    """
    import importlib

    import rag_core.assistant  # noqa: F401  (loads every stage, so every copy of the name exists)

    key, _, item = name.partition("-")
    module_name, attr, value = LISTS[key]
    original = getattr(importlib.import_module(module_name), attr)
    if item:
        value = type(value)(v for v in original if v != item)
        if len(value) == len(original):
            raise SystemExit(f"{item!r} is not in {key}")
    for module in list(sys.modules.values()):
        if isinstance(module, types.ModuleType) and module.__name__.startswith("rag_core"):
            if getattr(module, attr, None) is original:
                setattr(module, attr, value)


def list_name(name: str) -> str:
    """argparse type: a list of LISTS, `none`, or LIST-ITEM."""
    if name != "none" and name.partition("-")[0] not in LISTS:
        raise argparse.ArgumentTypeError(f"unknown list {name!r}")
    return name


def run_one(name: str, work: Path, part: str = "open") -> dict:
    from bench.sessions import SESSIONS, SETS, Stores, set_sessions  # noqa: I001
    from rag_core.evaluation.sessions import run_session, summarise

    if name != "none":
        empty(name)
    stores = Stores(work)
    results = []
    started = time.perf_counter()
    for session in set_sessions(SETS[part]):
        assistant = stores.for_session(session["corpus"], f"ablate-{session['id']}")
        results += run_session(assistant, session, SESSIONS)
        assistant.memory.close()
    summary = summarise(results)
    row = {key: value["rate"] for key, value in summary["acceptance"].items()}
    row["must_contain"] = summary["per_kind"].get("followup", {}).get("must_contain")
    return {"list": name, **row, "seconds": round(time.perf_counter() - started)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, required=True, help="corpus stores, kept between runs")
    parser.add_argument("--set", choices=["open", "fresh"], default="open", help="which session part")
    parser.add_argument("--list", action="append", type=list_name, help="default: none and every list; LIST-ITEM drops one item")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child process of one run
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.work_dir, args.set), ensure_ascii=False))
        return
    for name in args.list or ["none", *LISTS]:  # each in a fresh process: a list is emptied before first use
        row = run_child(["--work-dir", args.work_dir, "--set", args.set, "--one", name], script=__file__, timeout=7200)
        print(json.dumps(row, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
