"""A new document titled as a live one the uploader reads is named in the upload report (review 55g #4): 年假制度2025版.md
with the same title became a second live 年假制度, both searched, and the only warning was "文档很短"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fakes import fake_assistant

import rag_core.documents.catalog as catalog
from rag_core.types import Principal

HR, ADMIN = Principal("li", "hr"), Principal("wang", "admin")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()
HINT = "已有同名文档《年假制度》（文档ID 年假制度）：如果这是它的新版本，请在“文档ID”填 年假制度 重新上传，并删除多出的这一份"


def test_fix55g_a_renamed_new_edition_is_named_as_a_second_policy(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).doc_id == "年假制度"
    report = a.ingest_bytes(TEN, "年假制度2025版.md", actor=HR)
    assert report.status == "indexed" and report.doc_id != "年假制度"  # not refused
    assert HINT in report.warnings, report.warnings
    again = a.ingest_bytes(TEN + "第二条 年假可以分次休。\n".encode(), "年假制度2025版.md", actor=HR)
    assert again.version == 2 and HINT not in again.warnings  # its own new version says nothing more


def test_fix55g_a_title_hr_cannot_read_is_not_named(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["managers"], actor=ADMIN).ok
    report = a.ingest_bytes(TEN, "年假制度2025版.md", actor=HR)
    assert report.status == "indexed" and not any("同名" in w for w in report.warnings)


def test_fix55g_same_content_is_checked_against_the_version_in_effect_only(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    day = (catalog.office_day() + timedelta(days=2)).isoformat()
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=day, actor=HR).version == 2
    later = datetime.now(UTC) + timedelta(days=3)
    monkeypatch.setattr(catalog, "_utc_now", lambda: later)  # 十天 in effect; 五天 replaced, still 'current'
    report = a.ingest_bytes(FIVE, "年假-旧版存档.md", doc_id="年假存档", actor=HR)
    assert report.status == "indexed" and not any("同样的内容" in w for w in report.warnings), report.warnings


def test_fix55_the_same_title_advice_never_names_an_upload_hr_would_be_refused(tmp_path):
    """Review 181: with the managers' version in effect and one for everyone scheduled, the advice told HR to upload
    as that document's new version, and following it was refused. It says who can instead."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["managers"], actor=ADMIN).ok
    day = (catalog.office_day() + timedelta(days=5)).isoformat()
    assert a.ingest_bytes(FIVE, "年假制度.md", effective_date=day, actor=ADMIN).version == 2  # for everyone, later
    report = a.ingest_bytes(TEN, "年假制度2026.md", actor=HR)
    assert report.status == "indexed" and HINT not in report.warnings
    assert any("同名" in w and "系统管理员" in w for w in report.warnings), report.warnings
