"""Review 367 #3: a document id used again after a delete.

A managers-only policy was cited, deleted, and a new policy for everyone uploaded under the same file name (so the same
document id). 使用情况 credited the deleted policy's citations to the new one and showed HR, who may not read managers'
policies, the questions answered from it. Versions are never numbered twice, and the new document's first version is
stamped when it was written: a question asked before that cited the one deleted.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fakes import fake_assistant

import rag_core.documents.catalog as catalog_module
import rag_core.facade.question_log as question_log
from rag_core.types import Principal

ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
BOSS = Principal("boss", "employee", ("managers",))
OLD = "# 企鹅计划\n\n第一条 企鹅计划裁撤三成岗位，补偿N加3。\n".encode()
NEW = "# 企鹅计划\n\n第一条 企鹅计划是公司的公益项目，每年组织两次植树活动。\n".encode()


def _reused(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 休假制度\n\n第一条 员工年假五天。\n".encode(), "leave.md", actor=ADMIN).ok
    assert a.ingest_bytes(OLD, "penguin.md", audience=["managers"], actor=ADMIN).ok
    monkeypatch.setattr(question_log, "_now", lambda: datetime.now(UTC) - timedelta(hours=1))
    for question in ("企鹅计划裁撤多少岗位？", "企鹅计划补偿是多少？"):
        trace = a.ask(question, user="boss", actor=BOSS, remember=False)
        assert {h.chunk.doc_id for h in trace.search.hits} == {"penguin"}
    monkeypatch.undo()
    a.delete_document("penguin", actor=ADMIN)
    assert a.ingest_bytes(NEW, "penguin.md", actor=ADMIN).ok
    return a


def _cited(report, doc_id: str) -> int:
    return next(row["cited_total"] for row in report["documents"] if row["doc_id"] == doc_id)


def test_the_new_document_is_not_credited_with_the_deleted_ones_citations(tmp_path, monkeypatch):
    a = _reused(tmp_path, monkeypatch)
    report = a.usage(actor=ADMIN)
    assert report["questions"] == 2
    assert _cited(report, "penguin") == 0
    assert {"doc_id": "penguin", "title": "企鹅计划"} in report["never_cited"]


def test_questions_answered_from_the_deleted_managers_policy_stay_hidden_from_hr(tmp_path, monkeypatch):
    a = _reused(tmp_path, monkeypatch)
    assert a.usage(actor=HR)["questions"] == 0
    assert a.question_window(actor=HR)["questions"] == 0
    assert a.usage(actor=ADMIN)["questions"] == 2


def test_the_new_documents_own_citations_count(tmp_path, monkeypatch):
    a = _reused(tmp_path, monkeypatch)
    # a question in the very second of the delete is taken for the deleted document's (the cautious side)
    monkeypatch.setattr(question_log, "_now", lambda: datetime.now(UTC) + timedelta(seconds=2))
    trace = a.ask("企鹅计划每年组织几次植树？", user="li", actor=HR, remember=False)
    assert {h.chunk.doc_id for h in trace.search.hits} == {"penguin"}
    assert _cited(a.usage(actor=ADMIN), "penguin") == 1
    assert a.usage(actor=HR)["questions"] == 1


def test_an_id_used_three_times_keeps_each_deleted_documents_readers(tmp_path, monkeypatch):
    """Review 375 #2: only the last delete's audience was kept, so the managers' questions showed to HR."""
    a = _reused(tmp_path, monkeypatch)
    monkeypatch.setattr(question_log, "_now", lambda: datetime.now(UTC) + timedelta(seconds=2))
    a.ask("企鹅计划每年组织几次植树？", user="li", actor=HR, remember=False)  # from the second one, for everyone
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: datetime.now(UTC) + timedelta(seconds=4))
    a.delete_document("penguin", actor=ADMIN)
    assert [aud for _, aud in a.catalog.deletions("penguin")] == [("managers",), ("all",)]
    assert a.usage(actor=HR)["questions"] == 1 and a.usage(actor=ADMIN)["questions"] == 3
    assert a.ingest_bytes(NEW, "penguin.md", actor=ADMIN).ok  # a third time
    assert a.usage(actor=HR)["questions"] == 1 and _cited(a.usage(actor=ADMIN), "penguin") == 0


def test_a_question_answered_while_its_document_is_replaced_counts_for_the_old_one(tmp_path):
    """Review 375 #3: the question was stamped after its answer, so a delete and re-upload meanwhile took its credit."""
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(OLD, "penguin.md", audience=["managers"], actor=ADMIN).ok

    def replaced(_piece):
        if a.catalog.versions("penguin")[0].audience == ("managers",):
            a.delete_document("penguin", actor=ADMIN)
            assert a.ingest_bytes(NEW, "penguin.md", actor=ADMIN).ok

    a.ask("企鹅计划裁撤多少岗位？", user="boss", actor=BOSS, remember=False, on_token=replaced)
    assert a.usage(actor=HR)["questions"] == 0 and _cited(a.usage(actor=ADMIN), "penguin") == 0



def test_a_deleted_audience_an_older_version_wrote_is_read_and_kept(tmp_path):
    """The plain 'a,b' row of earlier versions becomes the first pair, its time unknown, at the next delete."""
    a = fake_assistant(tmp_path / "s")
    a.catalog.set_meta("deleted_audience:penguin", "managers")
    assert a.catalog.deleted_audience("penguin") == ("managers",)
    assert a.ingest_bytes(NEW, "penguin.md", actor=ADMIN).ok
    a.delete_document("penguin", actor=ADMIN)
    history = a.catalog.deletions("penguin")
    assert [aud for _, aud in history] == [("managers",), ("all",)] and history[0][0] == "" and history[1][0]
    assert a.catalog.deleted_audience("penguin") == ("all",)


def _weak_question_from_managers(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 休假制度\n\n第一条 员工年假 5 天。\n".encode(), "leave.md", actor=ADMIN).ok
    travel = "# 经理差旅细则\n\n第八条 经理级出差住宿每晚上限 1288 元，可报销头等舱。\n\n第九条 经理级招待费每月上限 8866 元。\n"
    assert a.ingest_bytes(travel.encode(), "mgr_travel.md", audience=["managers"], actor=ADMIN).ok
    turn = a.ask("经理级招待费是否含酒水", user="boss", actor=BOSS)
    assert turn.outcome == "weak"
    return a


def _hr_sees(a) -> bool:
    listed = any("酒水" in str(g) for g in a.knowledge_gaps(actor=HR, include_weak=True))
    return listed or "酒水" in a.export_insights("gaps", "csv", include_weak=True, actor=HR).decode("utf-8-sig")


def test_the_gaps_page_judges_a_weak_answer_by_the_document_that_stood(tmp_path, monkeypatch):
    """Review 378 #1: 知识缺口 judged by the document under the id now, so the reused id showed HR the question."""
    a = _weak_question_from_managers(tmp_path)
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: datetime.now(UTC) + timedelta(seconds=2))
    a.delete_document("mgr_travel", actor=ADMIN)
    assert a.ingest_bytes("# 差旅须知\n\n第一条 出差前请提交申请。\n".encode(), "mgr_travel.md", actor=ADMIN).ok
    assert not _hr_sees(a)
    a.delete_document("mgr_travel", actor=ADMIN)
    assert not _hr_sees(a)


def test_a_delete_from_before_the_history_is_not_overtaken_by_a_dated_one(tmp_path):
    """Review 378 #2: an older data dir's plain audience ('managers') came first, yet the dated 'all' was taken."""
    a = _reused(tmp_path, pytest.MonkeyPatch())
    a.catalog.set_meta("deleted_audience:penguin", "managers")  # as the older version left it
    a.delete_document("penguin", actor=ADMIN)  # the one for everyone, deleted under this version
    assert a.usage(actor=HR)["questions"] == 0


def test_a_damaged_history_hides_what_it_can_no_longer_tell(tmp_path, monkeypatch):
    """Review 378 #6: a cut value read as 'never deleted' and showed HR the managers' questions."""
    a = _reused(tmp_path, monkeypatch)
    a.catalog.set_meta("deleted_audience:penguin", '[["2026-12-0')
    assert a.usage(actor=HR)["questions"] == 0
    assert a.catalog.deleted_audience("penguin") == ()
