"""`python -m rag_core --data-dir D memory …` in-process, against the real facade and e5.

Seed 000 Checkpoint 1 runs through the CLI (`main([...])` with `capsys`). Only the 60
chatter items are written straight into the same memory database (one command per
item would be slow to read); `forget` and `list` then run through the CLI again.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta

import pytest
from cli_support import Result, invoke
from memory_support import e5

from rag_core.cli import main
from rag_core.cli.memory import register as register_memory_commands
from rag_core.memory import MemoryStore

PYTHON = "用户张三是 Python 开发者,专注机器学习"
PEANUT = "用户对花生过敏,推荐食物时必须避开"
OLD = "用户去年提过想学 Python 爬虫"


@pytest.fixture()
def data(tmp_path, monkeypatch):
    """The data dir; the working directory is its parent, so no `.env` of the checkout is read."""
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


@pytest.fixture()
def cli(data, capsys):
    """`cli(*args)`: `python -m rag_core --data-dir <data> memory *args`, in this process."""

    def run_memory_command(*args: str) -> Result:
        return invoke(capsys, "--data-dir", str(data), "memory", *args)

    return run_memory_command


def ok_json(result: Result) -> dict:
    return result.json()


def contents(payload: dict) -> list[str]:
    return [m["content"] for m in payload["memories"]]


@pytest.mark.integration
def test_checkpoint1_through_the_cli(cli, data):
    four_hundred_days_ago = (datetime.now(UTC) - timedelta(days=400)).isoformat(timespec="seconds")
    for args in (
        [PYTHON, "--user", "zs", "--importance", "0.8"],
        ["用户说今天天气不错", "--user", "zs", "--importance", "0.1", "--kind", "episode"],
        [PEANUT, "--user", "zs", "--importance", "0.9"],
        [OLD, "--user", "zs", "--importance", "0.8", "--kind", "episode", "--created-at", four_hundred_days_ago],
    ):
        assert ok_json(cli("add", *args, "--json"))["action"] == "added"

    tech = ok_json(cli("search", "张三擅长什么技术?", "--user", "zs", "--json"))
    assert contents(tech)[0] == PYTHON and OLD not in contents(tech)
    first = tech["memories"][0]
    assert {"id", "content", "importance", "relevance", "freshness", "score"} <= first.keys()
    assert first["score"] == pytest.approx(first["relevance"] * first["importance"] * first["freshness"], abs=1e-3)
    assert contents(ok_json(cli("search", "推荐个零食", "--user", "zs", "--json")))[0] == PEANUT
    assert ok_json(cli("search", "报销单交给谁审批?", "--user", "zs", "--json"))["memories"] == []

    chatter = [f"闲聊第 {i} 条" for i in range(60)]
    e5().embed_passages(chatter)  # one batch instead of 60 single calls (the store then reads the memo)
    store = MemoryStore(data / "memory.sqlite3", e5())  # the file the facade uses
    for text in chatter:
        store.add("zs", text, kind="episode", importance=0.1)
    store.close()
    assert len(ok_json(cli("list", "--user", "zs", "--json"))["memories"]) == 64
    preview = ok_json(cli("forget", "--keep", "50", "--user", "zs", "--dry-run", "--json"))
    assert len(preview["memories"]) == 14
    assert ok_json(cli("forget", "--keep", "50", "--user", "zs", "--json"))["forgotten"] == 14
    kept = contents(ok_json(cli("list", "--user", "zs", "--json")))
    assert len(kept) == 50 and PEANUT in kept and OLD not in kept
    assert ok_json(cli("list", "--user", "someone-else", "--json"))["memories"] == []


@pytest.mark.integration
def test_delete_purge_messages(cli):
    mid = ok_json(cli("add", PEANUT, "--user", "u1", "--json"))["id"]
    again = ok_json(cli("add", "用户吃花生会过敏", "--user", "u1", "--json"))
    assert again == {"id": mid, "action": "strengthened"}

    raw = cli("search", "推荐个零食", "--user", "u1", "--json").stdout
    assert "花生" in raw and "\\u" not in raw  # UTF-8, not ASCII escapes

    human = cli("search", "推荐个零食", "--user", "u1")
    assert human.exit_code == 0 and "花生过敏" in human.stdout

    deleted = cli("delete", mid)
    assert deleted.exit_code == 0 and "已删除 1 条" in deleted.stdout
    assert ok_json(cli("search", "推荐个零食", "--user", "u1", "--json"))["memories"] == []
    missing = cli("delete", mid)
    assert missing.exit_code == 1 and "找不到" in missing.stderr

    cli("add", "用户常驻杭州", "--user", "u1")
    purged = cli("purge", "--user", "u1")
    assert purged.exit_code == 0 and "已彻底删除" in purged.stdout
    assert ok_json(cli("list", "--user", "u1", "--json"))["memories"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "x", "--user", "u1", "--importance", "2"], "重要性"),
        (["add", "x", "--user", "u1", "--created-at", "昨天"], "ISO 8601"),
        (["search", "x"], "--user"),  # --user is required
    ],
    ids=["importance-out-of-range", "created-at-not-iso", "user-missing"],
)
def test_bad_arguments_exit_2_with_the_reason(args, message, data, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--data-dir", str(data), "memory", *args])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


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
