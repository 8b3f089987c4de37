"""Review 61 D3/D3b: `gaps` prints the office's days it filtered on, and `audit --since/--until` reads dates and times
on the office's clock and prints its rows' times there, as the 审计日志 page, `gaps` and `usage` do (they read UTC
days and printed raw UTC stamps). In process, fake assistant: no model loads."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.accounts.audit as audit_module
import rag_core.cli as cli
import rag_core.facade.question_log as insights_module
from rag_core.types import Principal

LOCAL = Principal(user="local", role="admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()
MOMENT = dt.datetime(2026, 12, 4, 23, 30, tzinfo=dt.UTC)  # 2026-12-05 07:30 in Beijing


class _At(dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return MOMENT


@pytest.fixture()
def store(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(audit_module, "datetime", _At)
    monkeypatch.setattr(insights_module, "_now", lambda: MOMENT)
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY, "leave.md", actor=LOCAL).ok
    return a


def test_gaps_shows_the_office_days_it_filtered_on(store, capsys):
    from rag_core.cli.insights import show_gaps

    store.ask("公司班车几点发车", user="local", actor=LOCAL, conversation="c1")
    args = argparse.Namespace(since="2026-12-05", until="2026-12-05", weak=False, include_tests=False, json=False)
    assert show_gaps(args, store) == 0
    assert "（2026-12-05 – 2026-12-05；" in capsys.readouterr().out


@pytest.fixture()
def audit(store, capsys, monkeypatch):
    monkeypatch.setattr(cli, "open_assistant", lambda args: store)
    return lambda *args: invoke(capsys, "--data-dir", str(store.settings.data_dir), "audit", *args)


def test_an_audit_day_is_the_office_day_the_page_lists(audit, store):
    page = store.audit_entries(since=dt.date(2026, 12, 5), until=dt.date(2026, 12, 5), actor=LOCAL)
    assert [e.action for e in page] == ["document.upload"]
    one_day = audit("--since", "2026-12-05", "--until", "2026-12-05")  # --until includes its day, as in gaps
    assert one_day.exit_code == 0 and "上传文档" in one_day.stdout, one_day
    assert "2026-12-05 07:30:00" in one_day.stdout and "+00:00" not in one_day.stdout  # the page's time
    assert "上传文档" not in audit("--until", "2026-12-04").stdout  # the UTC day it fell on
    assert "上传文档" not in audit("--since", "2026-12-06").stdout


def test_an_audit_time_without_an_offset_is_on_the_office_clock(audit):
    assert "上传文档" in audit("--since", "2026-12-05T07:29", "--until", "2026-12-05T07:31").stdout
    assert "上传文档" not in audit("--since", "2026-12-04T23:29", "--until", "2026-12-04T23:31").stdout
    assert "上传文档" in audit("--since", "2026-12-04T23:29+00:00").stdout  # an offset: that instant
    assert audit("--json").json()["entries"][0]["at"] == "2026-12-04T23:30:00+00:00"  # JSON keeps the stored stamp


def test_the_audit_help_says_the_office_zone(capsys):
    with pytest.raises(SystemExit):
        invoke(capsys, "audit", "--help")
    shown = capsys.readouterr().out
    assert "办公地时区" in shown and "UTC" not in shown
