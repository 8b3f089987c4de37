"""A file name differing from a stored document's only in letter case or full-width characters is asked about,
not made a second live document (review rev52m defect 2): HR-Leave.md then hr-leave.md, 年假制度2024 then
年假制度２０２４ left the old policy answering beside the new one."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.types import Principal

HR = Principal("li", "hr")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()


@pytest.mark.parametrize(("old", "new", "old_id"), [("HR-Leave.md", "hr-leave.md", "HR-Leave"),
                                                    ("年假制度2024.md", "年假制度２０２４.md", "年假制度2024"),
                                                    ("ＨＲ手册.txt", "hr手册.md", "ＨＲ手册")])
def test_a_name_equal_but_for_case_or_width_is_refused_as_a_clash_naming_the_stored_document(tmp_path, old, new, old_id):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, old, actor=HR).ok
    report = a.ingest_bytes(TEN, new, actor=HR)
    assert report.status == "refused" and report.conflict_doc_id == old_id, report
    assert old in report.error and "文档ID" in report.error and "改名" in report.error, report.error
    assert a.estimate_ingest(TEN, new, actor=HR).error  # the estimate says so before anything is written
    assert [d.doc_id for d in a.list_documents(actor=HR)] == [old_id]
    again = a.ingest_bytes(TEN, new, doc_id=report.conflict_doc_id, actor=HR)  # the page's 是新版本
    assert (again.doc_id, again.version) == (old_id, 2)
    assert [d.doc_id for d in a.list_documents(actor=HR)] == [old_id]


def test_stored_documents_whose_ids_differ_only_in_case_keep_taking_their_own_versions(tmp_path, monkeypatch):
    from rag_core.documents import prepare
    from rag_core.facade import documents as facade_documents

    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "HR-Leave.md", actor=HR).ok
    with monkeypatch.context() as before_the_check:  # a store an older version wrote: the twin check was not there
        before_the_check.setattr(prepare, "check_twin", lambda *args, **kwargs: None)
        before_the_check.setattr(facade_documents, "check_twin", lambda *args, **kwargs: None)  # its write-time look
        assert a.ingest_bytes(FIVE, "hr-leave.md", doc_id="hr-leave", actor=HR).ok
    for name, doc_id in (("hr-leave.md", "hr-leave"), ("HR-Leave.md", "HR-Leave")):
        report = a.ingest_bytes(TEN, name, actor=HR)
        assert (report.status, report.doc_id, report.version) == ("indexed", doc_id, 2), report
