"""An explicit doc id equal to a stored one but for case or width is refused as a derived one is (review 61, s3).

Leave.md uploaded, then a new file with doc_id="leave" (or Ｌｅａｖｅ, LEAVE) became a second live document: both
policies kept answering. A stored id the uploader may not read is not named (`NameTaken`).
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.documents.doc_ids import NAME_TAKEN
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr1", "hr")
V1 = "# 年假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode()
V2 = "# 年假制度（2026修订）\n\n第一条 员工每年享有七天带薪年假。\n".encode()


@pytest.mark.parametrize("typed", ["leave", "Ｌｅａｖｅ", "LEAVE"])
def test_an_explicit_twin_id_is_refused_naming_the_stored_one(tmp_path, typed):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1, "Leave.md", actor=HR).doc_id == "Leave"
    report = a.ingest_bytes(V2, "leave-2026.md", doc_id=typed, actor=HR)
    assert report.status == "refused" and "Leave" in report.error and "大小写" in report.error
    assert [d.doc_id for d in a.list_documents(actor=ADMIN)] == ["Leave"]
    assert a.estimate_ingest(V2, "leave-2026.md", doc_id=typed, actor=HR).error


def test_the_exact_stored_id_is_a_new_version(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1, "Leave.md", actor=HR).ok
    report = a.ingest_bytes(V2, "leave-2026.md", doc_id="Leave", actor=HR)
    assert report.ok and (report.doc_id, report.version) == ("Leave", 2)


def test_a_twin_of_a_hidden_document_is_not_named(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1, "Leave.md", audience=["managers"], actor=ADMIN).ok
    report = a.ingest_bytes(V2, "leave-2026.md", doc_id="leave", actor=HR)
    assert report.status == "refused" and NAME_TAKEN in report.error and "Leave" not in report.error.split(":", 1)[1]


def test_a_twin_made_between_the_estimate_and_the_import_is_refused(tmp_path):
    """Review rev-own1: the page estimates, then imports the kept document; a twin another HR person uploaded in
    between was not looked for again, and two live twins kept answering."""
    a = fake_assistant(tmp_path / "s")
    assert a.estimate_ingest(V2, "leave-2026.md", doc_id="LEAVE", actor=HR).ok
    assert a.ingest_bytes(V1, "Leave.md", actor=HR).doc_id == "Leave"  # meanwhile, in another session
    report = a.ingest_bytes(V2, "leave-2026.md", doc_id="LEAVE", actor=HR)
    assert report.status == "refused" and "大小写" in report.error, report
    assert [d.doc_id for d in a.list_documents(actor=ADMIN)] == ["Leave"]


@pytest.mark.parametrize("typed", ["\u200b", "   ", "\u3000\u200e"])
def test_a_blank_typed_id_is_no_id_and_replaces_nothing(tmp_path, typed):
    """A zero-width space in the page's 文档ID field, --doc-id " ": the id became "document" and the upload silently
    replaced the document of that id (review 322). Blank, the id comes from the file name."""
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 报销流程说明\n\n第一条 报销须在 30 天内提交。\n".encode(), "document.md", actor=HR).ok
    assert a.estimate_ingest(V1, "leave.md", doc_id=typed, actor=HR).error in (None, "")
    report = a.ingest_bytes(V1, "leave.md", doc_id=typed, actor=HR)
    assert report.ok and (report.doc_id, report.version) == ("leave", 1)
    assert sorted(d.doc_id for d in a.list_documents(actor=HR)) == ["document", "leave"]
