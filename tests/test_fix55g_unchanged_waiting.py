"""Re-uploading the file in effect while a scheduled version waits says that version still takes effect (review 55g
#5): the report said only 内容与当前版本完全相同, as if the upload had cancelled nothing or everything."""

from __future__ import annotations

from datetime import timedelta

from fakes import fake_assistant

import rag_core.documents.catalog as catalog
from rag_core.types import Principal

HR = Principal("li", "hr")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()


def test_fix55g_the_unchanged_report_names_the_waiting_version(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    day = (catalog.office_day() + timedelta(days=5)).isoformat()
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=day, actor=HR).version == 2
    report = a.ingest_bytes(FIVE, "年假制度.md", actor=HR)
    assert report.status == "unchanged" and report.version == 1
    assert f"内容与当前版本完全相同，未生成新版本；v2 仍将于 {day} 生效" in report.warnings, report.warnings
