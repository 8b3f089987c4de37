"""What the exact search over recent writes (rag_core/search/recent_writes.py) adds to every vector query.

Prints ms per `nearest` call by rows held, packed (as shipped) and restacked at every call (the first version):
the rows held are bounded by `CAPACITY`. Run: .venv/bin/python bench/recent_writes_cost.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag_core.search.recent_writes import CAPACITY, RecentWrites  # noqa: E402

CALLS = 300


def per_call(recent: RecentWrites, query: np.ndarray, restack: bool) -> float:
    recent.nearest(query, 30, [("all",)], lambda _: False)
    start = time.perf_counter()
    for _ in range(CALLS):
        if restack:
            recent._packed = None
        recent.nearest(query, 30, [("all",)], lambda _: False)
    return (time.perf_counter() - start) * 1000 / CALLS


def main() -> None:
    vectors = np.random.default_rng(0).normal(size=(4096, 384)).astype(np.float32)
    print(f"load average {os.getloadavg()[0]:.2f}; CAPACITY {CAPACITY}; {CALLS} calls each")
    print("| rows held | packed (ms a query) | restacked every query (ms) |\n|---|---|---|")
    for rows in (131, 1024, 4096):
        recent = RecentWrites(capacity=rows)
        recent.add(("all",), [f"c{i}" for i in range(rows)], vectors[:rows])
        print(f"| {rows:,} | {per_call(recent, vectors[5], False):.2f} | {per_call(recent, vectors[5], True):.2f} |")


if __name__ == "__main__":
    main()
