"""Review 61 (own1b R6): `audit --until 20261206` is the whole office day, as --until 2026-12-06 is. Every form
`date.fromisoformat` reads is a day (20261206, 2026-W49-7); only the length of the text decided before, so the
compact form was read as that day's midnight and dropped the whole day. Fake assistant: no model loads."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.cli.audit import _bound, _day_or_time
from rag_core.documents.catalog import office_today


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    store = tmp_path / "store"
    (tmp_path / "doc.md").write_text("# 制度\n\n第一条 内容。\n", encoding="utf-8")
    assert invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "doc.md")).exit_code == 0
    return lambda *args: invoke(capsys, "--data-dir", str(store), "audit", "--json", *args).json()["entries"]


def _forms(day: date) -> list[str]:
    year, week, weekday = day.isocalendar()
    return [day.strftime("%Y%m%d"), f"{year}-W{week:02d}-{weekday}", f"{year}W{week:02d}{weekday}"]


def test_every_form_of_a_date_includes_its_whole_day(run):
    today = date.fromisoformat(office_today())  # the CLI's store uses the default zone
    rows = run("--until", today.isoformat())
    assert rows
    for typed in _forms(today):
        assert run("--until", typed) == rows, typed
        assert run("--since", typed) == rows, typed


@pytest.mark.parametrize("typed", ["20261206", "2026-W49-7", "2026W497", "2026-12-06"])
def test_a_date_in_any_iso_form_is_a_day_and_a_time_stays_a_time(typed):
    zone = ZoneInfo("Asia/Shanghai")
    assert _day_or_time(typed) == "2026-12-06"
    assert _bound(_day_or_time(typed), zone) == date(2026, 12, 6)
    assert _bound(_day_or_time("2026-12-06T00:00"), zone) == "2026-12-05T16:00:00+00:00"
    assert _bound(_day_or_time("20261206T0800+08:00"), zone) == "2026-12-06T00:00:00+00:00"
