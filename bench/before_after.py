"""Two trees of the code measured in one run, alternating: first start, warm restart, search, same results.

    git archive <older commit> | tar -x -C /tmp/base        # the tree to compare with (--after: another)
    .venv/bin/python bench/before_after.py --base /tmp/base --store 10k=/tmp/rag_bench/store_10k \\
        --store 100k=/tmp/rag_bench/store_100k --rounds 2

Every measurement runs this tree's `bench/perf_child.py` in a fresh process, with
`BENCH_CODE_ROOT` pointing at the tree whose `rag_core` it measures, so both sides
are timed by the same code; "before" and "after" alternate round by round and the
load average is printed with each. Each tree gets its own copy of each store (under --work-dir); the stores must be readable by both trees
(grown by `perf_child.py build`, as bench_perf.py does). Search results are compared
question by question (every hit and near miss with all its scores and features, roles
hr and all): any difference is listed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (  # noqa: E402
    CODE_ROOT_VAR,
    PYTHON,
    ROOT,
    fmt,
    load_average,
    machine_description,
    percentile,
    questions,
    run_child,
    table,
    timed_command,
)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {'/'.join(f'{x:.1f}' for x in load_average())}] {msg}",
          file=sys.stderr, flush=True)


def load() -> float:
    return round(load_average()[0], 1)


def measure(trees: dict[str, Path], stores: dict[str, Path], work: Path, rounds: int, reps: int,
            cold_start: bool = True) -> dict:
    out: dict = {"machine": machine_description(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                 "trees": {k: str(v) for k, v in trees.items()}, "stores": {k: str(v) for k, v in stores.items()},
                 "cold": [], "warm": [], "search": [], "command": " ".join(sys.argv)}
    question = questions(1)[0]
    # each tree restarts on its own copy: on one shared store the two trees' start checks (which differ in what they
    # stamp) would each see the other's stamps as a change and probe at every switch — a cost of the alternation
    own = {(side, size): _own_copy(store, work / f"store_{side}_{size}") for side in trees for size, store in stores.items()}
    for side, tree in trees.items():  # untimed: compiles the tree's modules and settles its stamps, as any earlier run has
        for size in stores:
            _ask(tree, own[side, size], question)
    for r in range(rounds):
        for side, tree in trees.items():
            env = {CODE_ROOT_VAR: str(tree)}
            if cold_start:
                cold = work / f"cold_{side}"
                shutil.rmtree(cold, ignore_errors=True)
                log(f"round {r + 1} {side}: first start on an empty data dir")
                t0, before = time.perf_counter(), load()
                res = run_child(["startup", "--data-dir", cold, "--cold"], env=env)
                out["cold"].append({"side": side, "round": r, "wall_s": time.perf_counter() - t0, "load": before,
                                    **res})
            for size in stores:
                log(f"round {r + 1} {side}: warm restart {size}")
                before = load()
                wall = _ask(tree, own[side, size], question)
                out["warm"].append({"side": side, "round": r, "size": size, "wall_s": wall, "load": before})
                log(f"round {r + 1} {side}: search {size}")
                before = load()
                res = run_child(["search", "--data-dir", own[side, size], "--reps", reps, "--roles", "all", "hr"], env=env,
                                timeout=7200)
                out["search"].append({"side": side, "round": r, "size": size, "load": before, **res})
    out["same_results"] = {}
    for size in stores:
        files = {}
        for side, tree in trees.items():
            log(f"{side}: search results on {size}")
            files[side] = work / f"results_{side}_{size}.json"
            run_child(["results", "--data-dir", own[side, size], "--out", files[side]], env={CODE_ROOT_VAR: str(tree)},
                      timeout=7200)
        a, b = (json.loads(f.read_text(encoding="utf-8")) for f in files.values())
        out["same_results"][size] = {"compared": len(a), "different": sorted(k for k in a if a[k] != b.get(k))}
    out["load_at_end"] = [round(x, 2) for x in load_average()]
    return out


def _own_copy(store: Path, copy: Path) -> Path:
    """A fresh copy of `store` for one tree (the original stays as built)."""
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(store, copy)
    return copy


def _ask(tree: Path, store: Path, question: str) -> float:
    """Wall seconds of `python -m rag_core ask` with `tree`'s code on `store`: spawn to exit."""
    wall, proc = timed_command([PYTHON, "-m", "rag_core", "--data-dir", str(store), "ask", question, "--user", "bench"],
                               env={"PYTHONPATH": str(tree)}, cwd=tree)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return wall


def _median(rows: list[dict], key) -> float:
    values = [key(r) for r in rows]
    return percentile(values, 50)


def render(res: dict) -> str:
    sides = list(res["trees"])
    parts = [f"Run {res['started']} (`{res['command']}`), load average at start "
             f"{' / '.join(map(str, res['machine']['load_at_start']))}, at end {' / '.join(map(str, res['load_at_end']))}; "
             f"{res['machine']['cores']} cores. Figures are medians over the rounds (one process each); "
             "the load column is the 1-minute load average when each measurement started."]
    rows = []
    for side in sides:
        cold = [c for c in res["cold"] if c["side"] == side]
        if not cold:
            continue
        rows.append(["first start (empty data dir) → first answer, in process, s", side,
                     _median(cold, lambda c: c["in_process_to_first_answer_s"]),
                     " / ".join(fmt(c["load"]) for c in cold)])
        rows.append(["  of which indexing the samples, s", side, _median(cold, lambda c: c["ingest_samples_s"]), ""])
        rows.append(["  sample texts embedded by the model", side,
                     _median(cold, lambda c: c.get("sample_texts_embedded", float("nan"))), ""])
    for size in res["stores"]:
        for side in sides:
            warm = [w for w in res["warm"] if w["side"] == side and w["size"] == size]
            rows.append([f"warm restart at {size}: `python -m rag_core ask`, spawn to exit, s", side,
                         _median(warm, lambda w: w["wall_s"]), " / ".join(fmt(w["load"]) for w in warm)])
    parts.append(table(["measure", "tree", "value", "load"], rows))
    rows = []
    for size in res["stores"]:
        for role in ("all", "hr"):
            for side in sides:
                runs = [s for s in res["search"] if s["side"] == side and s["size"] == size]
                p50 = _median(runs, lambda s, role=role: s["roles"][role]["wall_ms"]["p50"])
                floor = _median(runs, lambda s: s["floor_ms"]["p50"])
                rows.append([size, role, side, p50, _median(runs, lambda s, role=role: s["roles"][role]["wall_ms"]["p95"]), floor,
                             p50 - floor, _median(runs, lambda s: s.get("second_query_ms", {}).get("p50", float("nan"))),
                             " / ".join(fmt(s["load"]) for s in runs)])
    parts.append("Warm `Assistant.search`, every question embedded anew (ms; floor = e5 `embed_query` alone, same "
                 "process):\n\n" + table(["chunks", "role", "tree", "p50", "p95", "floor p50", "p50 − floor",
                                          "second model query p50", "load"], rows))
    same = [[size, r["compared"], len(r["different"]), ", ".join(r["different"][:5]) or "–"]
            for size, r in res["same_results"].items()]
    parts.append("Same results (every hit and near miss with all scores and features, eval questions × roles "
                 "hr and all):\n\n" + table(["store", "searches compared", "different", "first differences"], same))
    return "\n\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", type=Path, required=True, help="the tree to compare with (before)")
    p.add_argument("--after", type=Path, default=ROOT, help="the tree measured as after (default: this one)")
    p.add_argument("--store", action="append", default=[], help="LABEL=DATA_DIR, e.g. 10k=/tmp/rag_bench/store_10k")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--reps", type=int, default=1, help="passes over the eval questions per search process")
    p.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_bench/before_after"))
    p.add_argument("--render-only", type=Path, default=None, help="re-render a saved results.json")
    p.add_argument("--no-cold", action="store_true", help="skip the first start on an empty data dir")
    p.add_argument("--write", action="store_true",
                   help="save the run as docs/bench_results/before_after.json and rewrite the README's block")
    args = p.parse_args(argv)
    if args.render_only:
        print(render(json.loads(args.render_only.read_text(encoding="utf-8"))))
        return 0
    args.work_dir.mkdir(parents=True, exist_ok=True)
    stores = dict(item.split("=", 1) for item in args.store)
    res = measure({"before": args.base.resolve(), "after": args.after.resolve()}, {k: Path(v) for k, v in stores.items()},
                  args.work_dir, args.rounds, args.reps, cold_start=not args.no_cold)
    saved = args.work_dir / "results.json"
    saved.write_text(json.dumps(res, ensure_ascii=False, indent=1), encoding="utf-8")
    log(f"saved {saved}")
    print(render(res))
    if args.write:
        from bench.perf_readme import COMPARE_RUN, update_readme

        COMPARE_RUN.write_text(json.dumps(res, ensure_ascii=False, indent=1), encoding="utf-8")
        update_readme()
        log(f"saved {COMPARE_RUN} and rewrote the README's performance block")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
