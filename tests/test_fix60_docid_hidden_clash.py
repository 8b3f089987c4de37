"""An upload or a delete never names a document the actor cannot read (SECURITY.md: "an id clash on upload never
names a document they cannot read").

HR (who cannot read 管理者) uploading a file whose name clashed with a managers-only document was told its exact id
(the case-twin refusal printed it, with a --doc-id hint), and deleting it was refused where a made-up id returned 0.
Now a clash with a document HR can read no version of says only that the name is taken, and its delete reads as an
unknown id; the audit keeps the real reason. Readers who can read a version are told as before.
Fake embedder, real Chroma and SQLite.
"""

from __future__ import annotations

import datetime

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.errors import PermissionDenied

ADMIN, HR = Principal("boss", "admin"), Principal("hr_li", "hr")
SECRET = "部门经理年终奖为年薪的百分之四十"
BONUS = f"# 裁员计划\n\n## 第一条\n\n{SECRET}，次年三月发放。\n".encode()
OTHER = "# 团建安排\n\n## 第一条\n\n每季度组织一次部门团建活动。\n".encode()
HIDDEN_ID = "Layoff_Plan_2025"


@pytest.fixture()
def store(tmp_path):
    a = fake_assistant(tmp_path / "s")
    first = a.ingest_bytes(BONUS, "Layoff Plan 2025.txt", audience=("managers",), actor=ADMIN)
    assert first.ok and first.doc_id == HIDDEN_ID
    return a


def _reason(error: str, typed: str) -> str:
    """The refusal after the "file name: " the uploader typed."""
    assert error.startswith(f"{typed}: "), error
    return error[len(typed) + 2:]


@pytest.mark.parametrize("typed", [
    "layoff plan 2025.txt",  # differs in case only: was 「只差大小写…（文档ID Layoff_Plan_2025）…--doc-id Layoff_Plan_2025」
    "Layoff Plan 2025.txt",  # the very name: was 「已有文档 Layoff_Plan_2025 不面向你的受众」 (the id, not the typed name)
    "Layoff(Plan)2025.txt",  # another name onto the same id
])
def test_a_clash_with_a_hidden_document_names_nothing(store, typed):
    estimate = store.estimate_ingest(OTHER, typed, actor=HR)
    report = store.ingest_bytes(OTHER, typed, actor=HR)
    assert not report.ok and report.status == "refused" and not report.conflict_doc_id, report
    for error in (estimate.error, report.error):
        reason = _reason(error, typed)
        assert HIDDEN_ID.casefold() not in reason.casefold(), reason
        assert "--doc-id" not in reason and "大小写" not in reason and "文档ID " not in reason, reason
        assert "占用" in reason and "改名" in reason, reason
    assert [v.audience for v in store.document_versions(HIDDEN_ID, actor=ADMIN)] == [("managers",)]  # untouched
    row = store.audit_log.entries(actor="hr_li", limit=1)[0]
    assert row.outcome == "refused" and HIDDEN_ID in row.detail, row  # the audit keeps the real reason


def test_every_clash_with_a_hidden_document_reads_the_same(store):
    reasons = {_reason(store.ingest_bytes(OTHER, typed, actor=HR).error, typed)
               for typed in ("layoff plan 2025.txt", "Layoff Plan 2025.txt", "Layoff(Plan)2025.txt")}
    reasons.add(_reason(store.ingest_bytes(OTHER, "x.txt", doc_id=HIDDEN_ID, actor=HR).error, "x.txt"))
    assert len(reasons) == 1, reasons
    assert store.ingest_bytes(OTHER, "Nothing_Like_It.txt", actor=HR).ok  # an unrelated name is not refused


def test_deleting_a_hidden_document_reads_as_an_unknown_id(store):
    assert store.delete_document("Made_Up_Id", actor=HR) == 0
    assert store.delete_document(HIDDEN_ID, actor=HR) == 0  # was PermissionDenied 「这份文档不面向你的受众」
    assert [v.status for v in store.document_versions(HIDDEN_ID, actor=ADMIN)] == ["current"]  # nothing removed
    row = store.audit_log.entries(actor="hr_li", limit=1)[0]
    assert (row.action, row.outcome) == ("refused", "refused") and HIDDEN_ID in row.target, row
    assert store.delete_document(HIDDEN_ID, actor=ADMIN) >= 1


def test_a_reader_of_the_document_is_told_as_before(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(OTHER, "Team Days.txt", audience=("all",), actor=ADMIN).ok
    twin = a.ingest_bytes(BONUS, "team days.txt", actor=HR)  # HR reads it: the twin is named, the page may offer it
    assert twin.conflict_doc_id == "Team_Days" and "--doc-id Team_Days" in twin.error, twin
    assert a.ingest_bytes(BONUS, "Team Days.txt", audience=("managers",), effective_date="2999-01-01", actor=ADMIN).ok
    report = a.ingest_bytes(OTHER + b"x", "Team Days.txt", actor=HR)  # HR reads v1, not the scheduled v2
    assert not report.ok and "没有权限" in report.error and "Team_Days" in report.error, report
    with pytest.raises(PermissionDenied, match="不面向你的受众"):
        a.delete_document("Team_Days", actor=HR)


def test_a_hidden_scheduled_version_is_named_as_what_blocks_hr(tmp_path):
    """HR's list shows the 全体员工 version in effect and offers its delete; a 管理者 version the administrator
    scheduled blocks it. The refusal said 不面向你的受众 of a document listed for everyone (review 322); it says a
    version HR cannot see blocks and who can act, and nothing of that version (review 326)."""
    admin, hr = Principal("wang", "admin"), Principal("li", "hr")
    a = fake_assistant(tmp_path / "s")
    later = (datetime.date.today() + datetime.timedelta(days=3)).isoformat()
    assert a.ingest_bytes("# 出差制度\n\n第一条 住宿每晚300元。\n".encode(), "travel.md", actor=admin).ok
    assert a.ingest_bytes("# 出差制度\n\n第一条 住宿每晚900元。\n".encode(), "travel.md", audience=["managers"],
                          effective_date=later, actor=admin).ok
    assert {d.doc_id: d.audience for d in a.list_documents(actor=hr)}["travel"] == ("all",)
    with pytest.raises(PermissionDenied, match="有你看不到的版本.*只有系统管理员可以删除这份文档") as refused:
        a.delete_document("travel", actor=hr)
    report = a.ingest_bytes("# 出差制度\n\n第一条 住宿每晚350元。\n".encode(), "travel.md", actor=hr)
    assert not report.ok and "有你看不到的版本" in report.error and "只有系统管理员可以上传它的新版本" in report.error
    for said in (str(refused.value), report.error):  # nothing of the hidden version: not its day, text or audience
        assert not any(word in said for word in ("900", later, "生效", "管理者"))
