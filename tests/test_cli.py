"""The CLI on the real facade and e5: `main([...])` in-process on a copy of the sample store.

The commands run in the test process (the model and jieba load once, not once per
command) with `--data-dir`, and print UTF-8 JSON on stdout. One test still starts
`python -m rag_core` as a user does, so the real entry point stays covered.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_support import Result, invoke
from conftest import EVAL, ROOT

pytestmark = pytest.mark.integration


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path):
    """`run(store, *args)`: one command on `store`; checks exit status 0 unless `check=False`."""
    monkeypatch.chdir(tmp_path)  # main reads `.env` from the working directory: not the checkout's

    def run_command(store, *args: str, check: bool = True) -> Result:
        result = invoke(capsys, "--data-dir", str(store), *args)
        if check:
            assert result.exit_code == 0, result.stderr
        return result

    return run_command


def test_search_ask_docs_json(store_copy, run):
    out = run(store_copy, "search", "打车费能报吗？", "--json").json()
    assert set(out) >= {"query", "hit_count", "hits", "timings_ms"}
    assert out["hit_count"] >= 1
    hit = out["hits"][0]
    assert {"doc_id", "source", "section", "text", "scores"} <= set(hit)
    assert {"bm25", "bm25_rank", "cosine", "cosine_rank", "fused", "passed"} <= set(hit["scores"])

    ask = run(store_copy, "ask", "公司年会预算是多少？", "--user", "u1", "--json").json()
    assert ask["answer"] == "制度里没有写这一条" and ask["hit_count"] == 0
    assert "prompt" in ask and "memories" in ask

    docs = run(store_copy, "docs", "list", "--json").json()["documents"]
    assert len(docs) == 8

    check = run(store_copy, "check", "--json").json()
    assert check["checked"] == sum(d["chunk_count"] for d in docs) and check["unreachable"] == []


def test_ingest_bad_file_exits_nonzero_and_docs_unchanged(store_copy, tmp_path, run):
    before = run(store_copy, "docs", "list", "--json").stdout
    bad = tmp_path / "坏文件.pdf"
    bad.write_bytes(b"not a pdf at all")
    result = run(store_copy, "ingest", str(bad), check=False)
    assert result.exit_code != 0
    err = result.stderr.strip()
    assert "坏文件.pdf" in err and len(err.splitlines()) == 1
    assert run(store_copy, "docs", "list", "--json").stdout == before


def test_ingest_new_version_and_delete(store_copy, tmp_path, run):
    f = tmp_path / "policy.md"
    f.write_text("# 试行制度\n\n第一条 海豚条款。海豚补贴每月 77 元。\n", encoding="utf-8")
    run(store_copy, "ingest", str(f), "--audience", "hr")
    f.write_text("# 试行制度\n\n第一条 海豚条款。海豚补贴每月 88 元。\n", encoding="utf-8")
    run(store_copy, "ingest", str(f), "--audience", "hr")
    docs = {d["doc_id"]: d for d in run(store_copy, "docs", "list", "--json").json()["documents"]}
    assert docs["policy"]["version"] == 2 and docs["policy"]["audience"] == ["hr"]
    hidden = run(store_copy, "search", "海豚补贴", "--role", "all", "--json").json()
    assert hidden["hit_count"] == 0
    assert all(h["doc_id"] != "policy" for h in hidden["near_misses"])
    shown = run(store_copy, "search", "海豚补贴", "--role", "hr", "--json").json()
    assert shown["hit_count"] >= 1 and "88" in shown["hits"][0]["text"]
    run(store_copy, "docs", "delete", "policy")
    assert run(store_copy, "search", "海豚补贴", "--role", "hr", "--json").json()["hit_count"] == 0


def test_eval_json(store_copy, run):
    out = run(store_copy, "eval", str(EVAL), "--json").json()
    assert set(out["metrics"]) == {"literal", "paraphrase", "near_miss", "absent"}
    assert {"recall@1", "recall@3", "recall@5", "mrr", "zero_hit_rate"} <= set(out["metrics"]["literal"])
    assert len(out["results"]) >= 60


def test_the_entry_point_in_a_subprocess(store_copy, tmp_path):
    """`python -m rag_core` as a user runs it: help, then one JSON listing read back as UTF-8."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}

    def entry_point(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "rag_core", *args], capture_output=True, cwd=tmp_path, env=env, timeout=300,
        )

    usage = entry_point("--help")
    assert usage.returncode == 0 and "docs" in usage.stdout.decode("utf-8")
    listing = entry_point("--data-dir", str(store_copy), "docs", "list", "--json")
    assert listing.returncode == 0, listing.stderr.decode("utf-8", "replace")
    assert len(json.loads(listing.stdout.decode("utf-8"))["documents"]) == 8


@pytest.mark.parametrize("argv", [["docs", "delete"], ["docs", "versions", "x"], ["nosuch"], ["search", "年假", "--bad"]])
def test_usage_errors_are_one_chinese_line_with_status_2(argv, capsys):
    """argparse printed its English usage and message (helper-36 8)."""
    from rag_core.cli import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("错误：") and err.count("\n") == 1 and "usage:" not in err, err
