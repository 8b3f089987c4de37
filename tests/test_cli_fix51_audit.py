"""`audit --limit` is a bounded positive count and out-of-range times are refused in Chinese (review rev51b
defect 4: a 20-digit --limit was reported as a damaged audit store, 0 and -1 printed every row, and
--until 0001-01-01T00:00:00+08:00 ended in an English OverflowError traceback). Fake assistant: no model loads."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.accounts.audit import AuditLog


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    store = tmp_path / "store"
    for number in range(3):
        (tmp_path / f"doc{number}.md").write_text(f"# 制度{number}\n\n第一条 内容{number}。\n", encoding="utf-8")
        assert invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / f"doc{number}.md")).exit_code == 0
    return lambda *args: invoke(capsys, "--data-dir", str(store), "audit", *args)


@pytest.mark.parametrize("limit", ["99999999999999999999", "0", "-1", "abc", "9" * 5000])
def test_a_bad_limit_is_a_chinese_usage_error(run, capsys, limit):
    with pytest.raises(SystemExit) as stopped:
        run("--limit", limit)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert "整数" in err and "已损坏" not in err and "移走" not in err and "Traceback" not in err


def test_a_good_limit_still_limits(run):
    assert len(run("--limit", "1", "--json").json()["entries"]) == 1
    assert len(run("--json").json()["entries"]) >= 3


@pytest.mark.parametrize("option, moment", [("--until", "0001-01-01T00:00:00+08:00"),
                                            ("--since", "9999-12-31T23:59:59-08:00")])
def test_a_time_out_of_range_is_a_chinese_refusal(run, capsys, option, moment):
    with pytest.raises(SystemExit) as stopped:
        run(option, moment)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "范围" in err and "Overflow" not in err


def test_the_store_never_builds_sql_from_an_unbounded_limit(tmp_path):
    log = AuditLog(tmp_path / "audit.sqlite3")
    for number in range(3):
        log.record("local", "admin", "document.upload", f"doc{number}")
    assert len(log.entries(limit=10**20)) == 3
    assert log.entries(limit=0) == [] and log.entries(limit=-1) == []
    assert [e.target for e in log.entries(limit=2)] == ["doc2", "doc1"]
