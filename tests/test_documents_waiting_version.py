"""The documents list shows the version in effect; a version scheduled to replace it is said beside it (v2 将于 D
生效), for the readers of that version only (review 177: re-uploading the file in effect hid that v2 still comes)."""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with
from fakes import fake_assistant

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PASSWORD = "correct horse"
ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
FIVE = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
TEN = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()


def test_a_version_scheduled_to_replace_the_one_in_effect_is_named(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2099-12-04", actor=ADMIN).version == 2
    assert a.ingest_bytes(TEN + "第二条。".encode(), "年假制度.md", effective_date="2099-12-20", actor=ADMIN).version == 3
    [doc] = a.list_documents(actor=ADMIN)
    assert (doc.version, doc.status) == (1, "current")
    waiting = a.waiting_versions(actor=ADMIN)
    assert {d: (v.version, v.effective_date) for d, v in waiting.items()} == {doc.doc_id: (2, "2099-12-04")}


def test_a_waiting_version_hr_may_not_read_is_not_named(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", audience=["managers"], effective_date="2099-12-04", actor=ADMIN).ok
    assert a.waiting_versions(actor=HR) == {}
    assert a.waiting_versions(actor=ADMIN)


def test_the_documents_page_says_the_waiting_version(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", PASSWORD)
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2099-12-04", actor=ADMIN).ok
    at = logged_in_with(a, APP, "wang", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    [table] = [d for d in at.dataframe if "文档ID" in d.value.columns]
    assert list(table.value["状态"]) == ["生效中；v2 将于 2099-12-04 生效"]


def test_the_documents_page_names_every_scheduled_version_in_the_order_they_take_effect(tmp_path, monkeypatch):
    """A correction (v3) dated before a version still to come (v2) takes effect first and is then replaced by v2: the
    list names both, so HR sees that the wrong version still comes (review 200; `scheduled_versions`)."""
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", PASSWORD)
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2099-12-20", actor=ADMIN).version == 2
    assert a.ingest_bytes(TEN + "更正。".encode(), "年假制度.md", effective_date="2099-12-04", actor=ADMIN).version == 3
    at = logged_in_with(a, APP, "wang", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    [table] = [d for d in at.dataframe if "文档ID" in d.value.columns]
    assert list(table.value["状态"]) == ["生效中；v3 将于 2099-12-04 生效；v2 将于 2099-12-20 生效"]


def test_a_row_does_not_name_its_own_version_as_coming(tmp_path):
    """A document with no version in effect yet shows its first scheduled version as the row: 状态 names only the
    others (review 205)."""
    from ui.uploads import documents_frame

    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2099-12-20", actor=ADMIN).ok
    assert a.ingest_bytes(FIVE, "年假制度.md", effective_date="2099-12-04", actor=ADMIN).ok
    docs = a.list_documents(actor=ADMIN)
    [state] = list(documents_frame(docs, a.scheduled_versions(actor=ADMIN))["状态"])
    shown = docs[0].version
    assert f"v{shown} 将于" not in state and state.count("将于") == 1, state
