"""A full disk after the switch to the new version (review 52n1 #2).

The steps after `switch_current` (the file-name key, the keyword index, retiring the old version) were not
covered: a full disk raised SQLite's English, the page said nothing was written and the audit said failed, while
the new version answered and the old one stayed current. Real SQLite, Chroma and jieba; the fake embedder.
"""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

import ui.uploads
from rag_core.types import Principal

HR, EMP, ADMIN = Principal("li", "hr"), Principal("zhang", "employee"), Principal("wang", "admin")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()


def disk_full(*args, **kwargs):
    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = sqlite3.SQLITE_FULL
    raise exc


def uploads(a) -> list[tuple[str, str]]:
    return [(e.outcome, e.detail) for e in a.audit_entries(actor=ADMIN) if e.action == "document.upload"]


def versions(a) -> list[tuple[int, str]]:
    return [(v.version, v.status) for v in a.catalog.versions("年假制度")]


def found_versions(a) -> set[int]:
    return {h.chunk.version for h in a.search("年假提前几天申请", actor=EMP).hits}


@pytest.mark.parametrize("part,method,step", [
    ("name_keys", "add", "记录原始文件名"), ("keywords", "add", None), ("centroid", "add", "语料统计"),
    ("vectors", "delete", "停用旧版本 v1"), ("keywords", "remove", "停用旧版本 v1"),
])
def test_a_full_disk_after_the_switch_reports_the_live_version(tmp_path, monkeypatch, part, method, step):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    monkeypatch.setattr(getattr(a.indexer, part), method, disk_full)
    report = a.ingest_bytes(TEN, "年假制度.md", actor=HR)
    assert report.status == "indexed" and report.version == 2, report
    assert versions(a) == [(1, "retired"), (2, "current")]  # the old version is retired all the same
    assert found_versions(a) == {2}
    assert uploads(a)[0] == ("ok", "年假制度 v2 已索引；受众 全体员工")  # the audit says what is live
    if step is None:  # the keyword index rebuilt itself from the catalog: nothing left undone
        assert not any("收尾" in w for w in report.warnings), report.warnings
    else:
        (line,) = [w for w in report.warnings if "收尾" in w]
        assert "新版本 v2 已生效" in line and "磁盘空间不足" in line and step in line and "重新上传同一文件" in line, line


def test_retiring_the_old_version_left_undone_is_finished_by_uploading_the_file_again(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    with monkeypatch.context() as m:
        m.setattr(a.indexer.catalog, "set_status", disk_full)
        report = a.ingest_bytes(TEN, "年假制度.md", actor=HR)
    assert report.status == "indexed" and any("停用旧版本 v1" in w and "磁盘空间不足" in w for w in report.warnings)
    assert versions(a) == [(1, "current"), (2, "current")] and found_versions(a) == {2}
    again = a.ingest_bytes(TEN, "年假制度.md", actor=HR)  # space freed: the same file again
    assert again.status == "unchanged" and versions(a) == [(1, "retired"), (2, "current")]


def test_a_check_failing_after_the_write_is_a_warning_not_nothing_written(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    monkeypatch.setattr(a, "_same_content", disk_full)
    report = a.ingest_bytes(TEN, "年假制度.md", actor=HR)
    assert report.status == "indexed" and any("新版本已生效" in w for w in report.warnings), report.warnings
    assert uploads(a)[0][0] == "ok" and versions(a) == [(1, "retired"), (2, "current")]


def test_the_page_never_says_nothing_was_written_for_an_unexpected_error(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)
    monkeypatch.setattr(a, "ingest_bytes", disk_full)  # raised at any point, perhaps after the switch
    (report,) = ui.uploads.ingest_uploads(a, [("年假制度.md", FIVE)])
    assert "未写入任何内容" not in report.error and "查看" in report.error and "重试" in report.error, report.error
