"""The delete confirmation counts every version's chunks and names the scheduled versions it cancels."""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with
from fakes import fake_assistant

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")


def test_delete_confirmation_counts_all_versions_and_names_the_scheduled_one(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", PASSWORD)
    assert a.ingest_bytes("# 年假制度\n\n员工每年享有五天带薪年假。".encode(), "年假制度.md", actor=ADMIN).ok
    later = a.ingest_bytes("# 年假制度\n\n员工每年享有十天带薪年假。".encode(), "年假制度.md",
                           effective_date="2099-12-04", actor=ADMIN)
    assert later.version == 2
    at = logged_in_with(a, APP, "wang", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/documents.py").run()
    at.main.selectbox[0].set_value("年假制度").run()
    next(b for b in at.button if b.label == "删除此文档").click().run()
    assert not at.exception, [e.value for e in at.exception]
    question = next(w.value for w in at.warning if "确定删除" in w.value)
    assert "共 2 块" in question
    assert "v2（原定 2099-12-04 生效）" in question
    next(b for b in at.button if b.label == "确认删除").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert a.catalog.versions("年假制度") == []
