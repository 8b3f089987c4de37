"""Warm restart of two trees alternating in one run, and their search results compared (issue 31 B).

    git archive <older commit> | tar -x -C /tmp/base
    git archive HEAD | tar -x -C /tmp/after
    .venv/bin/python bench/warm_restart.py --base /tmp/base --after /tmp/after --store /tmp/rag_bench/store_10k \\
        --rounds 6 [--profile /tmp/spy] [--results 2] [--out run.json]

A warm restart is `python -m rag_core --data-dir STORE ask QUESTION`, spawn to exit, in a fresh
process, each tree's own `rag_core`, both over the same store (the one bench/before_after.py times,
without its search timing, which takes most of an hour at 10k on this machine). The trees alternate
round by round with the 1-minute load average noted per run, and the CPU seconds the process used
(user + system, from the children's rusage: less sensitive to other jobs than the wall time); read
the ratio within one run. One untimed start per tree comes first: it compiles the tree's bytecode
and writes whatever start-up caches the tree keeps (the keyword index snapshot, USE's state), which
the timed rounds then read.

`--results N` compares every hit and near miss with all scores (`perf_child.py results`, eval
questions × roles hr and all), N dumps per tree: on the 10k store two processes of the same tree
disagree in a few searches (second-model z-scores and sentence ranks only), so a search counts as
changed when no dump of "after" equals any dump of "before". `--profile DIR` records one py-spy
profile (raw, all threads, idle included) per tree after the timed rounds.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import CODE_ROOT_VAR, PYTHON, fmt, load_average, percentile, run_child, table, timed_command  # noqa: E402

QUESTION = "工作满1年不满10年的员工，带薪年假有几天？"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {'/'.join(f'{x:.1f}' for x in load_average())}] {msg}",
          file=sys.stderr, flush=True)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def restart(tree: Path, store: Path, profile: Path | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds user + system) of one warm restart."""
    cmd = [PYTHON, "-m", "rag_core", "--data-dir", str(store), "ask", QUESTION, "--user", "bench"]
    if profile is not None:
        spy = shutil.which("py-spy") or str(Path(PYTHON).with_name("py-spy"))
        cmd = [spy, "record", "-r", "100", "--idle", "--threads", "-f", "raw", "-o", str(profile), "--", *cmd]
    cpu = _children_cpu()
    wall, proc = timed_command(cmd, env={"PYTHONPATH": str(tree)}, cwd=tree)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return wall, _children_cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", type=Path, required=True)
    p.add_argument("--after", type=Path, required=True)
    p.add_argument("--store", type=Path, required=True, help="a data dir both trees can open (e.g. the 10k store)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--results", type=int, default=0, metavar="N",
                   help="compare every search result of the two trees, each tree's dump taken N times (N processes)")
    p.add_argument("--profile", type=Path, default=None, help="a directory for one py-spy profile per tree")
    p.add_argument("--out", type=Path, default=None, help="save the measurements as JSON")
    args = p.parse_args(argv)
    trees = {"before": args.base.resolve(), "after": args.after.resolve()}
    started, load_start = time.strftime("%Y-%m-%d %H:%M:%S"), [round(x, 2) for x in load_average()]
    for side, tree in trees.items():  # not timed: compiles each tree's bytecode and writes its start-up caches
        log(f"warm-up {side}: {restart(tree, args.store)[0]:.2f} s")
    runs: list[dict] = []
    for r in range(args.rounds):
        for side, tree in trees.items():
            load = round(load_average()[0], 1)
            wall, cpu = restart(tree, args.store)
            runs.append({"side": side, "round": r + 1, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load": load})
            log(f"round {r + 1} {side}: {wall:.2f} s wall, {cpu:.2f} s CPU")
    out: dict = {"started": started, "command": " ".join(sys.argv), "load_at_start": load_start, "runs": runs}
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
        for side, tree in trees.items():
            restart(tree, args.store, args.profile / f"{side}.raw")
            log(f"profile {side}: {args.profile / f'{side}.raw'}")
    if args.results:
        dumps: dict[str, list[dict]] = {side: [] for side in trees}
        for n in range(args.results):
            for side, tree in trees.items():
                file = args.store.with_name(f"{args.store.name}.results_{side}_{n + 1}.json")
                run_child(["results", "--data-dir", args.store, "--out", file], env={CODE_ROOT_VAR: str(tree)},
                          timeout=7200)
                dumps[side].append(json.loads(file.read_text(encoding="utf-8")))
                log(f"{side}: search results {n + 1} saved")
        before, after = dumps["before"], dumps["after"]
        keys = sorted(before[0])
        out["same_results"] = {
            "compared": len(keys), "dumps_per_tree": args.results,
            # the same tree's processes disagreeing: the noise floor of the comparison
            "before_runs_differ": [k for k in keys if any(b[k] != before[0][k] for b in before[1:])],
            "after_runs_differ": [k for k in keys if any(a[k] != after[0][k] for a in after[1:])],
            "different": [k for k in keys if any(a.get(k) != before[0][k] for a in after[:1])],
            "matching_no_before_run": [k for k in keys if not any(a.get(k) == b[k] for a in after for b in before)],
        }
    out["load_at_end"] = [round(x, 2) for x in load_average()]
    if args.out:
        args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    def col(side: str, key: str) -> list[float]:
        return [x[key] for x in runs if x["side"] == side]

    rows = [[side, " / ".join(fmt(x, 2) for x in col(side, "wall_s")), fmt(percentile(col(side, "wall_s"), 50), 2),
             fmt(percentile(col(side, "cpu_s"), 50), 2), " / ".join(fmt(x) for x in col(side, "load"))] for side in trees]
    print(f"Run {started} (`{out['command']}`), load at start {' / '.join(map(str, load_start))}, at end "
          f"{' / '.join(map(str, out['load_at_end']))}\n")
    print(table(["tree", "warm restart per round, s", "median wall, s", "median CPU (user + sys), s", "load per round"],
                rows))
    if "same_results" in out:
        same = out["same_results"]
        print(f"\nSame results: {same['compared']} searches, {same['dumps_per_tree']} dump(s) per tree; "
              f"after's first dump differs from before's first in {len(same['different'])}; searches where no "
              f"dump of after equals any dump of before: {len(same['matching_no_before_run'])} "
              f"{same['matching_no_before_run'][:3]}; before's own dumps disagree in {len(same['before_runs_differ'])} "
              f"{same['before_runs_differ'][:4]}, after's in {len(same['after_runs_differ'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
