"""Days are the office's: a date filter, the per-day count and the exports read times in Settings.timezone.

Rows are stamped in UTC. A question asked at 07:30 in Beijing is 23:30 UTC the day before; the pages show
it as 07:30 on its Beijing day, so filtering for that day must list it and the chart must count it there.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from zoneinfo import ZoneInfo

import openpyxl
import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal
from rag_core.insights.days import day_window, local_day
from rag_core.insights.records import InsightError

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal(user="local", role="admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()
BEIJING = ZoneInfo("Asia/Shanghai")
MOMENT = dt.datetime(2026, 12, 4, 23, 30, tzinfo=dt.UTC)  # 2026-12-05 07:30 in Beijing


def test_a_day_window_is_the_office_day_in_utc():
    assert day_window("2026-12-05", "2026-12-05", BEIJING) == ("2026-12-04T16:00:00+00:00", "2026-12-05T16:00:00+00:00")
    assert day_window(None, None, BEIJING) == ("", "\uffff")
    assert local_day(MOMENT.isoformat(), BEIJING) == "2026-12-05"
    assert local_day(MOMENT.isoformat(), None) == "2026-12-04"
    with pytest.raises(InsightError, match="日期格式"):
        day_window("12/05", None, BEIJING)


@pytest.fixture()
def asked_at_dawn(tmp_path, monkeypatch):
    """A facade whose clock says MOMENT, with one question asked (audited and logged) then."""
    import rag_core.accounts.audit as audit_module
    import rag_core.facade.question_log as insights_module

    class At(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return MOMENT

    monkeypatch.setattr(audit_module, "datetime", At)
    monkeypatch.setattr(insights_module, "_now", lambda: MOMENT)
    assistant = fake_assistant(tmp_path / "store")
    assistant.ingest_bytes(POLICY, "leave.md", actor=LOCAL)
    trace = assistant.ask("公司班车几点发车", user="local", actor=LOCAL, conversation="c1")
    assistant.record_feedback(trace, -1, actor=LOCAL, reason=assistant.feedback_reasons[0])
    return assistant


def test_the_audit_page_finds_a_row_on_its_local_day(asked_at_dawn, tmp_path, monkeypatch):
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: asked_at_dawn)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/audit.py").run()
    for box in at.date_input[:2]:
        box.set_value(dt.date(2026, 12, 5))
    at.run()
    assert set(at.dataframe[0].value["时间"]) == {"2026-12-05 07:30:00"}
    assert at.dataframe[0].value.shape[0] >= 1
    for box in at.date_input[:2]:
        box.set_value(dt.date(2026, 12, 4))
    at.run()
    assert at.dataframe[0].value.shape[0] == 0


def test_gaps_feedback_and_usage_count_the_local_day(asked_at_dawn):
    a = asked_at_dawn
    assert a.usage(actor=LOCAL)["per_day"] == [{"day": "2026-12-05", "questions": 1}]
    assert a.knowledge_gaps(since="2026-12-05", until="2026-12-05", actor=LOCAL)
    assert not a.knowledge_gaps(since="2026-12-04", until="2026-12-04", actor=LOCAL)
    assert len(a.feedback_reviews(since="2026-12-05", until="2026-12-05", actor=LOCAL)) == 1
    assert a.audit_entries(since=dt.date(2026, 12, 5), until=dt.date(2026, 12, 5), actor=LOCAL)
    assert a.audit_entries(since="2026-12-05", actor=LOCAL) == []  # text stays a UTC time (the CLI's form)


def test_exports_show_local_times_and_chinese_columns(asked_at_dawn):
    book = openpyxl.load_workbook(io.BytesIO(asked_at_dawn.export_insights("feedback", "xlsx", actor=LOCAL)))
    header, first = list(book.worksheets[0].iter_rows(values_only=True))[:2]
    row = dict(zip(header, first, strict=True))
    assert row["时间"] == "2026-12-05 07:30" and row["用户"] == "本机用户"
    gaps = asked_at_dawn.export_insights("gaps", "csv", actor=LOCAL).decode("utf-8-sig")
    assert "首次出现" in gaps and "2026-12-05 07:30" in gaps and "+00:00" not in gaps


def test_exports_run_no_formula_and_say_everything_in_chinese(asked_at_dawn):
    """A comment =HYPERLINK(...) became a live formula in the Excel export (helper-44 3); kinds, ratings and
    flags showed as {"zero_hit": 1}, -1 and True (helper-44 11)."""
    a = asked_at_dawn
    trace = a.ask("公司班车几点发车", user="local", actor=LOCAL, conversation="c2")
    a.record_feedback(trace, -1, actor=LOCAL, reason=a.feedback_reasons[0], comment='=HYPERLINK("http://x.example")')
    sheet = openpyxl.load_workbook(io.BytesIO(a.export_insights("feedback", "xlsx", actor=LOCAL))).worksheets[0]
    rows = list(sheet.iter_rows())
    header = [c.value for c in rows[0]]
    cells = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    comment = next(r["补充说明"] for r in cells if r["补充说明"].value)
    assert comment.data_type == "s" and comment.value.startswith("=HYPERLINK")
    assert {r["评价"].value for r in cells} == {"👎 没用"} and {r["未读"].value for r in cells} <= {"是", "否"}
    text = a.export_insights("feedback", "csv", actor=LOCAL).decode("utf-8-sig")
    assert "'=HYPERLINK" in text
    gaps = a.export_insights("gaps", "csv", actor=LOCAL).decode("utf-8-sig")
    assert "没有命中" in gaps or "制度里没有写" in gaps
    assert "zero_hit" not in gaps and "{" not in gaps
