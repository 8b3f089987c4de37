"""`python -m rag_core --data-dir D memory …` in a real subprocess, against the real facade.

Seed 000 Checkpoint 1 runs through the CLI. Only the 60 chatter items are written
straight into the same memory database (one CLI process per item would take minutes);
`forget` and `list` then run through the CLI again.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from memory_support import e5

from rag_core.cli.memory import register as register_memory_commands
from rag_core.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.integration

PYTHON = "用户张三是 Python 开发者,专注机器学习"
PEANUT = "用户对花生过敏,推荐食物时必须避开"
OLD = "用户去年提过想学 Python 爬虫"


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    env.pop("RAG_DATA_DIR", None)
    for key in ("LLM_API_KEY", "LLM_MODEL_ID"):
        env[key] = ""
    return subprocess.run(
        [sys.executable, "-m", "rag_core", "--data-dir", str(data_dir), "memory", *args],
        cwd=data_dir.parent, env=env, capture_output=True, timeout=300,
    )


def ok_json(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return json.loads(proc.stdout.decode("utf-8"))


def contents(payload: dict) -> list[str]:
    return [m["content"] for m in payload["memories"]]


def test_checkpoint1_through_the_cli(tmp_path):
    data = tmp_path / "data"
    four_hundred_days_ago = (datetime.now(UTC) - timedelta(days=400)).isoformat(timespec="seconds")
    for args in (
        [PYTHON, "--user", "zs", "--importance", "0.8"],
        ["用户说今天天气不错", "--user", "zs", "--importance", "0.1", "--kind", "episode"],
        [PEANUT, "--user", "zs", "--importance", "0.9"],
        [OLD, "--user", "zs", "--importance", "0.8", "--kind", "episode", "--created-at", four_hundred_days_ago],
    ):
        assert ok_json(cli(data, "add", *args, "--json"))["action"] == "added"

    tech = ok_json(cli(data, "search", "张三擅长什么技术?", "--user", "zs", "--json"))
    assert contents(tech)[0] == PYTHON and OLD not in contents(tech)
    first = tech["memories"][0]
    assert {"id", "content", "importance", "relevance", "freshness", "score"} <= first.keys()
    assert first["score"] == pytest.approx(first["relevance"] * first["importance"] * first["freshness"], abs=1e-3)
    assert contents(ok_json(cli(data, "search", "推荐个零食", "--user", "zs", "--json")))[0] == PEANUT
    assert ok_json(cli(data, "search", "报销单交给谁审批?", "--user", "zs", "--json"))["memories"] == []

    store = MemoryStore(data / "memory.sqlite3", e5())  # the file the facade uses
    for i in range(60):
        store.add("zs", f"闲聊第 {i} 条", kind="episode", importance=0.1)
    store.close()
    assert len(ok_json(cli(data, "list", "--user", "zs", "--json"))["memories"]) == 64
    preview = ok_json(cli(data, "forget", "--keep", "50", "--user", "zs", "--dry-run", "--json"))
    assert len(preview["memories"]) == 14
    assert ok_json(cli(data, "forget", "--keep", "50", "--user", "zs", "--json"))["forgotten"] == 14
    kept = contents(ok_json(cli(data, "list", "--user", "zs", "--json")))
    assert len(kept) == 50 and PEANUT in kept and OLD not in kept
    assert ok_json(cli(data, "list", "--user", "someone-else", "--json"))["memories"] == []


def test_delete_purge_messages_and_errors(tmp_path):
    data = tmp_path / "data"
    mid = ok_json(cli(data, "add", PEANUT, "--user", "u1", "--json"))["id"]
    again = ok_json(cli(data, "add", "用户吃花生会过敏", "--user", "u1", "--json"))
    assert again == {"id": mid, "action": "strengthened"}

    raw = cli(data, "search", "推荐个零食", "--user", "u1", "--json").stdout
    assert "花生".encode() in raw and b"\\u" not in raw  # UTF-8, not ASCII escapes

    human = cli(data, "search", "推荐个零食", "--user", "u1")
    assert human.returncode == 0 and "花生过敏" in human.stdout.decode("utf-8")

    deleted = cli(data, "delete", mid)
    assert deleted.returncode == 0 and "已删除 1 条" in deleted.stdout.decode("utf-8")
    assert ok_json(cli(data, "search", "推荐个零食", "--user", "u1", "--json"))["memories"] == []
    missing = cli(data, "delete", mid)
    assert missing.returncode == 1 and "找不到" in missing.stderr.decode("utf-8")

    cli(data, "add", "用户常驻杭州", "--user", "u1")
    purged = cli(data, "purge", "--user", "u1")
    assert purged.returncode == 0 and "已彻底删除" in purged.stdout.decode("utf-8")
    assert ok_json(cli(data, "list", "--user", "u1", "--json"))["memories"] == []

    bad = cli(data, "add", "x", "--user", "u1", "--importance", "2")
    assert bad.returncode == 2 and "重要性" in bad.stderr.decode("utf-8")
    bad_date = cli(data, "add", "x", "--user", "u1", "--created-at", "昨天")
    assert bad_date.returncode == 2 and "ISO 8601" in bad_date.stderr.decode("utf-8")
    assert cli(data, "search", "x").returncode == 2  # --user is required


def test_parser_registers_every_sub_command():
    parser = argparse.ArgumentParser()
    register_memory_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["memory", "add", "我在研发部", "--user", "u", "--kind", "profile", "--importance", "0.5",
                              "--created-at", "2025-03-01"])
    assert (args.memory_command, args.text, args.importance, args.created_at.year) == ("add", "我在研发部", 0.5, 2025)
    for argv in (["memory", "search", "q", "--user", "u", "--json"], ["memory", "list", "--user", "u", "--json"],
                 ["memory", "delete", "a", "b"], ["memory", "forget", "--keep", "3"], ["memory", "purge", "--user", "u"],
                 ["memory", "set-importance", "a", "0.3"]):
        assert parser.parse_args(argv).memory_command == argv[1]
