"""The version history shows each version's audience and file: restricting a policy is no longer a no-op (review 52m #2)."""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with
from fakes import fake_assistant

from rag_core.types import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
ADMIN = Principal("wang", "admin")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()


def test_fix52m2_version_history_shows_audience_file_and_the_audience_change(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    a.add_user("wang", "admin", "correct horse")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=ADMIN).version == 2   # restricted
    assert a.ingest_bytes(TEN, "年假制度.md", audience=["hr", "managers"], actor=ADMIN).version == 3
    at = logged_in_with(a, APP, "wang", "correct horse", tmp_path, monkeypatch)
    at.switch_page("pages/documents.py").run()
    at.main.selectbox[0].set_value("年假制度").run()
    assert not at.exception
    history = at.dataframe[1].value  # 版本历史, newest first
    rows = history.set_index("版本")
    assert list(rows["可见范围"]) == ["HR、管理者", "HR", "全体员工"], history.to_string()
    assert set(rows["文件"]) == {"年假制度.md"}
    assert rows.loc["v2", "与上一版相比"] == "正文未变，可见范围由 全体员工 改为 HR"
    assert rows.loc["v3（当前）", "与上一版相比"].endswith("；可见范围由 HR 改为 HR、管理者")
    assert "可见范围" not in rows.loc["v1", "与上一版相比"]


def test_fix52m2_the_facade_fills_each_versions_audience(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=ADMIN).ok
    assert [c.audience for c in a.document_changes("年假制度", actor=ADMIN)] == [("hr",), ("all",)]
