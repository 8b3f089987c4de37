"""Performance benchmark: ingest, search, baselines, start-up and memory at 1k/10k/100k chunks.

    .venv/bin/python bench/bench_perf.py                      # 1k, 10k, 100k; writes docs/benchmarks.md
    .venv/bin/python bench/bench_perf.py --sizes 1000,10000
    .venv/bin/python bench/bench_perf.py --quick              # 1k only
    .venv/bin/python bench/bench_perf.py --render-only /tmp/rag_bench/results.json
    .venv/bin/python bench/bench_perf.py --before docs/bench_results/before.json   # the run to compare with

One run measures everything, so ratios compare numbers taken on the same
machine under the same load. The corpus is bench/synthetic.py's recombination
of the sample policies. The 1k store is ingested end to end with the real e5
model; larger stores continue from a copy of it through the same facade with
real e5 vectors reused under small noise (see bench/perf_store.py). Every
search embeds its question with the real model. Each measurement that needs a
fresh process runs bench/perf_child.py. Timings go into the generated part of
docs/benchmarks.md; text outside the markers there is kept. When a saved
results file of an earlier run exists (`--before`, by default
docs/bench_results/before.json), a before/after section compares the two.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (  # noqa: E402
    PYTHON,
    ROOT,
    load_average,
    machine_description,
    questions,
    run_child,
    size_label,
    timed_command,
)
from bench.perf_report import load_before, render, write_doc  # noqa: E402

# OpenMP settings of the e5 engine compared under contention (environment only, no code change).
CONFIGS: dict[str, dict[str, str]] = {
    "as shipped": {},
    "OMP_WAIT_POLICY=PASSIVE": {"OMP_WAIT_POLICY": "PASSIVE"},
    "GOMP_SPINCOUNT=10000": {"GOMP_SPINCOUNT": "10000"},
}


class Competitor:
    """`with Competitor(n):` keeps n busy-looping processes running (a controlled noisy neighbour)."""

    def __init__(self, n: int):
        self.n = n
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> Competitor:
        self.procs = [subprocess.Popen([PYTHON, "-c", "while True: pass"]) for _ in range(self.n)]
        time.sleep(0.5 if self.n else 0)
        return self

    def __exit__(self, *exc) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


def log(msg: str) -> None:
    load = "/".join(f"{x:.1f}" for x in load_average())
    print(f"[{time.strftime('%H:%M:%S')} load {load}] {msg}", file=sys.stderr, flush=True)


def bench_encoder(results: dict) -> None:
    """e5 alone: threads and OpenMP waiting policy, on an idle machine and next to one busy process."""
    rows = []
    settings = [(1, "as shipped")] + [(2, name) for name in CONFIGS]
    for busy in (0, 1):
        for threads, name in settings:
            log(f"encoder e5 threads={threads} {name}, {busy} busy process(es)")
            with Competitor(busy):
                res = run_child(["encoder", "--model", "e5", "--threads", threads, "--passages", 32,
                                 "--batches", 16, 32], env=CONFIGS[name])
            rows.append({"threads": threads, "config": name, "busy": busy, **res})
    results["encoder"] = rows


def bench_threads_search(results: dict, stores: dict[int, Path], questions_n: int) -> None:
    """Warm search at 10k under each OpenMP setting, idle and next to one busy process."""
    size = max((s for s in stores if s <= 10000), default=min(stores))
    out = results.setdefault("threads_search", {"size": size, "rows": []})
    for busy in (0, 1):
        for name, env in CONFIGS.items():
            log(f"search {size_label(size)} with {name}, {busy} busy process(es)")
            with Competitor(busy):
                res = run_child(["search", "--data-dir", stores[size], "--reps", 1, "--questions", questions_n,
                                 "--roles", "hr"], env=env)
            out["rows"].append({"config": name, "busy": busy, "wall_ms": res["roles"]["hr"]["wall_ms"],
                                "embed_ms": res["roles"]["hr"]["stages"]["embed_ms"], "floor_ms": res["floor_ms"]})


def bench_ingest(results: dict, work: Path, seed: int, chunks: int, model: str, key: str) -> Path:
    store = work / f"ingest_{model}_{chunks}"
    shutil.rmtree(store, ignore_errors=True)
    log(f"end-to-end ingest of {chunks} chunks with {model}")
    res = run_child(["ingest", "--data-dir", store, "--warm-dir", work / f"warm_{model}_{chunks}",
                     "--chunks", chunks, "--model", model, "--seed", seed], timeout=7200)
    results.setdefault("ingest", {})[key] = res
    return store


def bench_builds(results: dict, work: Path, seed: int, sizes: list[int], base: Path, base_chunks: int,
                 reuse: bool, buffer_from: int) -> dict[int, Path]:
    """Stores at each size: the real 1k store, then copies grown through the facade."""
    stores: dict[int, Path] = {}
    previous = base
    for size in sorted(sizes):
        if size <= base_chunks:
            stores[size] = base
            continue
        store = work / f"store_{size_label(size)}"
        marker = store / "bench_build.json"
        if reuse and marker.exists():
            log(f"reusing {store}")
            results.setdefault("builds", {})[str(size)] = {**json.loads(marker.read_text()), "reused": True}
        else:
            shutil.rmtree(store, ignore_errors=True)
            shutil.copytree(previous, store)
            log(f"building {size} chunks from a copy of {previous.name}")
            args = ["build", "--data-dir", store, "--pool-dir", base, "--chunks", size, "--seed", seed]
            if size > buffer_from:
                args += ["--buffer-upserts", 5000]
            res = run_child(args, timeout=7200)
            marker.write_text(json.dumps(res))
            results.setdefault("builds", {})[str(size)] = res
        stores[size] = store
        previous = store
    return stores


def bench_search(results: dict, stores: dict[int, Path], reps: int, slow_limit: int) -> None:
    """Warm search as shipped at each size, with the baselines."""
    out = results.setdefault("search", {})
    for size, store in stores.items():
        log(f"search {size_label(size)} + baselines")
        out[str(size)] = {"as shipped": run_child(["search", "--data-dir", store, "--slow-limit", slow_limit,
                                                   "--reps", reps, "--baselines"], timeout=7200)}


def bench_reingest(results: dict, stores: dict[int, Path], seed: int) -> None:
    out = results.setdefault("reingest", {})
    for size, store in stores.items():
        log(f"one changed document in the {size_label(size)} store")
        out[str(size)] = run_child(["reingest", "--data-dir", store, "--doc-index", 10, "--seed", seed])


def bench_startup(results: dict, stores: dict[int, Path], work: Path) -> None:
    """Warm restart: a new process over a store on disk; cold: first start on an empty data dir."""
    out = results.setdefault("startup", {})
    question = questions(1)[0]
    base_s, _ = timed_command([PYTHON, "-c", "pass"])
    out["python_startup_s"] = base_s
    for size, store in stores.items():
        row: dict = {"cli_runs_s": []}
        for _ in range(2):
            log(f"warm restart {size_label(size)}: python -m rag_core ask")
            wall, proc = timed_command([PYTHON, "-m", "rag_core", "--data-dir", str(store), "ask", question,
                                        "--user", "bench"], cwd=work)
            if proc.returncode != 0:
                raise RuntimeError(proc.stderr[-2000:])
            row["cli_runs_s"].append(wall)
        row["breakdown"] = run_child(["startup", "--data-dir", store])
        out[str(size)] = row
    cold = work / "cold_start"
    shutil.rmtree(cold, ignore_errors=True)
    log("cold first start (empty data dir: index the samples, then answer)")
    t0 = time.perf_counter()
    res = run_child(["startup", "--data-dir", cold, "--cold"])
    out["cold"] = {**res, "wall_s": time.perf_counter() - t0}


def bench_streamlit(results: dict, stores: dict[int, Path]) -> None:
    out = results.setdefault("streamlit", {})
    for size in sorted(stores)[:2]:
        log(f"streamlit run → first answered question ({size_label(size)})")
        try:
            from bench.perf_streamlit import measure_streamlit

            out[str(size)] = measure_streamlit(stores[size], questions(1)[0])
        except Exception as exc:  # optional measurement: report, never fail the run
            out[str(size)] = {"error": f"{type(exc).__name__}: {exc}"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1000,10000,100000", help="chunk counts, comma-separated")
    p.add_argument("--quick", action="store_true", help="1k only")
    p.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_bench"))
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--reps", type=int, default=2, help="passes over the 82 eval questions per search setting")
    p.add_argument("--thread-questions", type=int, default=40,
                   help="questions (one pass) per OpenMP setting in the contention comparison")
    p.add_argument("--slow-limit", type=int, default=20, help="questions for the pure-Python BM25 baseline")
    p.add_argument("--base-chunks", type=int, default=1000, help="size of the really embedded store (smoke tests)")
    p.add_argument("--use-ingest", type=int, default=0, help="also ingest this many chunks end to end with USE")
    p.add_argument("--buffer-from", type=int, default=10000,
                   help="stores above this size buffer Chroma upserts while building (time budget)")
    p.add_argument("--reuse", action="store_true", help="reuse stores built by a previous run (development)")
    p.add_argument("--skip-streamlit", action="store_true")
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    p.add_argument("--no-write", action="store_true", help="print the tables only")
    p.add_argument("--render-only", type=Path, default=None, help="re-render a saved results.json")
    p.add_argument("--before", type=Path, default=ROOT / "docs" / "bench_results" / "before.json",
                   help="results.json of an earlier run for the before/after section (skipped if absent)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.render_only:
        results = json.loads(args.render_only.read_text(encoding="utf-8"))
    else:
        sizes = [args.base_chunks] if args.quick else sorted(int(s) for s in args.sizes.split(",") if s.strip())
        work = args.work_dir
        work.mkdir(parents=True, exist_ok=True)
        results = {"machine": machine_description(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                   "sizes": sizes, "seed": args.seed, "reps": args.reps, "command": " ".join(sys.argv)}
        t0 = time.perf_counter()
        bench_encoder(results)
        base = bench_ingest(results, work, args.seed, args.base_chunks, "e5", "e5")
        if args.use_ingest:
            bench_ingest(results, work, args.seed, args.use_ingest, "use", "use")
        stores = bench_builds(results, work, args.seed, sizes, base, args.base_chunks, args.reuse, args.buffer_from)
        bench_search(results, stores, args.reps, args.slow_limit)
        bench_threads_search(results, stores, args.thread_questions)
        bench_reingest(results, stores, args.seed)
        bench_startup(results, stores, work)
        if not args.skip_streamlit:
            bench_streamlit(results, stores)
        results["load_at_end"] = [round(x, 2) for x in load_average()]
        results["duration_s"] = time.perf_counter() - t0
        (work / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
        log(f"results saved to {work / 'results.json'}")
    text = render(results, load_before(args.before))
    print(text)
    if not args.no_write:
        write_doc(args.out, text)
        log(f"wrote {args.out}")
        if not args.render_only:  # the README's block is generated from this run too
            from bench.perf_readme import FULL_RUN, update_readme

            FULL_RUN.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
            update_readme()
            log(f"saved {FULL_RUN} and rewrote the README's performance block")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
