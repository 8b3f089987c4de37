"""The CLI as a user runs it: subprocesses with --data-dir, UTF-8 JSON on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.integration


def run(store, *args, check=True):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "rag_core", "--data-dir", str(store), *args],
        capture_output=True, cwd=ROOT, env=env, timeout=300,
    )
    if check:
        assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return proc


def test_search_ask_docs_json(store_copy):
    out = json.loads(run(store_copy, "search", "打车费能报吗？", "--json").stdout.decode("utf-8"))
    assert set(out) >= {"query", "hit_count", "hits", "timings_ms"}
    assert out["hit_count"] >= 1
    hit = out["hits"][0]
    assert {"doc_id", "source", "section", "text", "scores"} <= set(hit)
    assert {"bm25", "bm25_rank", "cosine", "cosine_rank", "fused", "passed"} <= set(hit["scores"])

    ask = json.loads(run(store_copy, "ask", "公司年会预算是多少？", "--user", "u1", "--json").stdout.decode("utf-8"))
    assert ask["answer"] == "制度里没有写这一条" and ask["hit_count"] == 0
    assert "prompt" in ask and "memories" in ask

    docs = json.loads(run(store_copy, "docs", "list", "--json").stdout.decode("utf-8"))["documents"]
    assert len(docs) == 8

    check = json.loads(run(store_copy, "check", "--json").stdout.decode("utf-8"))
    assert check["checked"] == sum(d["chunk_count"] for d in docs) and check["unreachable"] == []


def test_ingest_bad_file_exits_nonzero_and_docs_unchanged(store_copy, tmp_path):
    before = run(store_copy, "docs", "list", "--json").stdout
    bad = tmp_path / "坏文件.pdf"
    bad.write_bytes(b"not a pdf at all")
    proc = run(store_copy, "ingest", str(bad), check=False)
    assert proc.returncode != 0
    err = proc.stderr.decode("utf-8").strip()
    assert "坏文件.pdf" in err and len(err.splitlines()) == 1
    assert run(store_copy, "docs", "list", "--json").stdout == before


def test_ingest_new_version_and_delete(store_copy, tmp_path):
    f = tmp_path / "policy.md"
    f.write_text("# 试行制度\n\n第一条 海豚条款。海豚补贴每月 77 元。\n", encoding="utf-8")
    run(store_copy, "ingest", str(f), "--audience", "hr")
    f.write_text("# 试行制度\n\n第一条 海豚条款。海豚补贴每月 88 元。\n", encoding="utf-8")
    run(store_copy, "ingest", str(f), "--audience", "hr")
    docs = {d["doc_id"]: d for d in json.loads(run(store_copy, "docs", "list", "--json").stdout)["documents"]}
    assert docs["policy"]["version"] == 2 and docs["policy"]["audience"] == ["hr"]
    hidden = json.loads(run(store_copy, "search", "海豚补贴", "--json").stdout)
    assert hidden["hit_count"] == 0
    assert all(h["doc_id"] != "policy" for h in hidden["near_misses"])
    shown = json.loads(run(store_copy, "search", "海豚补贴", "--role", "hr", "--json").stdout)
    assert shown["hit_count"] >= 1 and "88" in shown["hits"][0]["text"]
    run(store_copy, "docs", "delete", "policy")
    assert json.loads(run(store_copy, "search", "海豚补贴", "--role", "hr", "--json").stdout)["hit_count"] == 0


def test_eval_json_one_process(store_copy):
    out = json.loads(run(store_copy, "eval", "tests/data/eval.jsonl", "--json").stdout.decode("utf-8"))
    assert set(out["metrics"]) == {"literal", "paraphrase", "near_miss", "absent"}
    assert {"recall@1", "recall@3", "recall@5", "mrr", "zero_hit_rate"} <= set(out["metrics"]["literal"])
    assert len(out["results"]) >= 60
