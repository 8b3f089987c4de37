"""The benchmarks share one percentile and one way to start a measuring child; the README's figures are generated."""

from __future__ import annotations

import ast
from pathlib import Path

from bench.common import percentile
from bench.perf_readme import README, block

BENCH = Path(__file__).resolve().parent.parent / "bench"
# Processes that are not measuring children: servers the browser benchmarks drive, the busy-loop
# neighbours of bench_perf.py, the tesseract binary of bench_ocr.py.
OTHER_PROCESSES = {"perf_streamlit.py", "load_browser.py", "bench_perf.py", "bench_ocr.py"}
OWN_STATISTICS = {("statistics", "median"), ("statistics", "quantiles"), ("np", "percentile"), ("np", "median"),
                  ("np", "quantile"), ("numpy", "percentile"), ("numpy", "median")}


def calls(tree: ast.AST) -> set[tuple[str, str]]:
    return {(node.func.value.id, node.func.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)}


def test_percentiles_and_children_come_from_bench_common():
    for path in sorted(BENCH.glob("*.py")):
        if path.name == "common.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert "percentile" not in defined, f"{path.name}: use bench.common.percentile"
        assert not calls(tree) & OWN_STATISTICS, f"{path.name}: use bench.common.percentile"
        if path.name not in OTHER_PROCESSES:
            assert not calls(tree) & {("subprocess", "run"), ("subprocess", "Popen")}, \
                f"{path.name}: start measuring children with bench.common.run_child"


def test_percentile_interpolates_linearly():
    assert percentile([], 50) != percentile([], 50)  # nan
    assert percentile([3.0], 95) == 3.0
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([10, 20, 30, 40, 50], 95) == 48.0


def test_the_readme_performance_block_is_the_one_rendered_from_the_saved_runs():
    """Fails after a hand edit of the block or a run saved without regenerating: python bench/perf_readme.py"""
    assert block() in README.read_text(encoding="utf-8")
