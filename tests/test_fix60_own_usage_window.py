"""Usage over a window of days says what it counts (rev-own2 D1).

`usage(since, until)` reads only the window's questions, but its 近30天/近90天 columns were counted back from now over
those rows and 从未被引用 was read from them: for a window of an old day, a policy cited today showed 0 under 近30天
and was listed as never cited, in the CLI and in the export alike. Now a window's report counts citations in the
window (所选时间内引用) and lists what the window did not cite (所选时间内未被引用); without a window nothing changes."""

from __future__ import annotations

import argparse
import io
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fakes import fake_assistant_with_samples

import rag_core.facade.question_log as insights
from rag_core import Principal
from rag_core.cli.insights import show_usage

HR = Principal("li", "hr")


@pytest.fixture()
def cited(tmp_path, monkeypatch):
    """A question 60 days ago citing the leave policy, one today citing the travel policy; the old day."""
    a = fake_assistant_with_samples(tmp_path / "s")
    real = datetime.now(UTC)
    old = real - timedelta(days=60)
    monkeypatch.setattr(insights, "_now", lambda: old)
    a.ask("年假有几天？", user="li", actor=HR)
    monkeypatch.setattr(insights, "_now", lambda: real)
    a.ask("出差住宿标准是多少？", user="li", actor=HR)
    return a, old.astimezone(ZoneInfo(a.settings.timezone)).date().isoformat()


def test_fix60_own_a_windows_usage_counts_the_window_and_says_so(cited):
    a, day = cited
    report = a.usage(since=day, until=day, actor=HR)
    assert report["questions"] == 1 and report["window"] == {"since": day, "until": day}
    rows = {r["doc_id"]: r for r in report["documents"]}
    assert rows["01_attendance_leave"]["cited_window"] == 1
    assert rows["03_travel_expense"]["cited_window"] == 0  # not cited in the window: said as that, not 近30天 0
    assert all("cited_30d" not in r for r in report["documents"])  # nothing counted back from today
    assert "03_travel_expense" in {d["doc_id"] for d in report["never_cited"]}  # the window's, as labelled below
    whole = a.usage(actor=HR)  # without a window: as before
    assert whole["window"] is None
    rows = {r["doc_id"]: r for r in whole["documents"]}
    assert rows["03_travel_expense"]["cited_30d"] == 1 and rows["01_attendance_leave"]["cited_90d"] == 1
    assert "03_travel_expense" not in {d["doc_id"] for d in whole["never_cited"]}


def test_fix60_own_the_cli_labels_a_windows_counts(cited, capsys):
    a, day = cited
    show_usage(argparse.Namespace(since=day, until=day, include_tests=False, json=False), a)
    out = capsys.readouterr().out
    assert "近30天" not in out and "从未被引用" not in out
    travel = next(line for line in out.splitlines() if "差旅" in line and "所选时间内被引用" in line)
    assert travel.split()[0] == "0"
    assert "所选时间内未被引用：" in out
    show_usage(argparse.Namespace(since=None, until=None, include_tests=False, json=False), a)
    out = capsys.readouterr().out
    assert "近30天 / 近90天被引用" in out and "从未被引用：" in out and "差旅" not in out.split("从未被引用：")[1]


def test_fix60_own_the_export_labels_a_windows_counts(cited):
    from openpyxl import load_workbook

    a, day = cited
    book = load_workbook(io.BytesIO(a.export_insights("usage", "xlsx", since=day, until=day, actor=HR)))
    assert "从未引用" not in book.sheetnames and "所选时间内未被引用" in book.sheetnames
    header = next(book["文档引用"].iter_rows(values_only=True))
    assert "所选时间内引用" in header and "近30天引用" not in header and "保留期内引用" not in header
    text = a.export_insights("usage", "csv", since=day, until=day, actor=HR).decode("utf-8")
    assert "【所选时间内未被引用】" in text and "近30天引用" not in text
    whole = load_workbook(io.BytesIO(a.export_insights("usage", "xlsx", actor=HR)))
    assert "从未引用" in whole.sheetnames
    assert "近30天引用" in next(whole["文档引用"].iter_rows(values_only=True))
