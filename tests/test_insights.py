"""The insights facade on the fake embedder: question log, retention, feedback review, names, usage, export.

Real SQLite and Chroma in a temp dir; the fake bigram embedder keeps it fast. The
grouping by meaning with e5 is in test_insights_cli.py.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fakes import fake_assistant_with_samples
from openpyxl import load_workbook

from rag_core.errors import PermissionDenied, RagError
from rag_core.types import Principal

HR = Principal("hr_li", "hr")
ADMIN = Principal("boss", "admin")
EMPLOYEE = Principal("emp_wang", "employee")
ABSENT = "公司有没有提供班车？"


@pytest.fixture()
def assistant(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    return a


@pytest.fixture()
def strict(tmp_path):
    """Every question below the (very high) answer threshold: zero hits, so every question is a gap."""
    a = fake_assistant_with_samples(tmp_path / "strict", answer_threshold=0.99)
    return a


def test_zero_hit_questions_are_logged_as_gaps_and_answered_ones_are_not(strict, assistant):
    strict.ask(ABSENT, actor=EMPLOYEE)
    strict.ask(ABSENT, actor=Principal("emp_zhao", "employee"))
    groups = strict.knowledge_gaps(actor=HR)
    assert [(g.representative, g.count) for g in groups] == [(ABSENT, 2)]
    assert groups[0].kinds == {"zero_hit": 2}
    trace = assistant.ask("出差住宿标准是多少？", actor=EMPLOYEE)  # 依据充分 on the fake embedder too
    assert trace.hit_count > 0 and trace.sources[0].verdict == "依据充分"
    assert assistant.knowledge_gaps(actor=HR) == []
    assert [r["outcome"] for r in assistant.insight_log.question_rows()] == ["answered"]


def test_an_answer_from_weak_evidence_only_is_a_gap_that_keeps_its_citations(assistant):
    # answered, but the best governing clause was 依据较弱: HR should see it beside the unanswered ones
    trace = assistant.ask("年假有几天？", actor=EMPLOYEE)
    assert trace.sources and {s.verdict for s in trace.sources} == {"依据较弱"}, "the fake embedder's verdict changed"
    assert trace.answer.startswith("依据较弱") and trace.weak_evidence
    [row] = assistant.insight_log.question_rows()
    assert row["outcome"] == "weak" and row["cited_docs"] == ["01_attendance_leave"]
    assert assistant.knowledge_gaps(actor=HR) == []  # not by default: most such answers are right
    [group] = assistant.knowledge_gaps(include_weak=True, actor=HR)
    assert group.representative == "年假有几天？" and group.kinds == {"weak": 1}
    assert group.nearest["doc_id"] == "01_attendance_leave"
    assert assistant.usage(actor=HR)["outcomes"] == {"weak": 1}


def test_questions_are_stored_masked(strict):
    strict.ask("我的手机13812345678换了，班车卡怎么办？", actor=EMPLOYEE)
    stored = strict.insight_log.question_rows()[0]["question"]
    assert "13812345678" not in stored and "[手机号]" in stored
    # the log masks on its own too (ask masks first), and so does the feedback comment
    trace = strict.ask(ABSENT, actor=EMPLOYEE)
    trace.question = trace.search_question = "我的手机13912345678换了"
    strict._log_asked(trace, "emp_wang", None)
    assert "13912345678" not in str(strict.insight_log.question_rows())
    strict.record_feedback(trace, -1, actor=EMPLOYEE, comment="请打13712345678找我")
    assert "13712345678" not in str(strict.feedback_detail(1, actor=HR))


def test_a_standard_answers_clauses_are_stored_masked(assistant):
    """HR types the clauses a standard answer rests on; they are shown in the asker's trace (helper-31 B2)."""
    entry = assistant.add_standard_answer("班车联系人是谁？", "请联系行政部。", actor=HR,
                                          clauses=["行政管理办法 第三条 联系人 手机13912345678 身份证110101199003071233"])
    assert "13912345678" not in str(entry.clauses) and "[手机号]" in entry.clauses[0]
    trace = assistant.ask("班车联系人是谁？", user="", remember=False, actor=EMPLOYEE)
    assert trace.answerer == "标准答复"
    assert not any(raw in str(trace.standard_answer) for raw in ("13912345678", "110101199003071233"))


def test_retention_drops_old_questions_and_zero_keeps_none(strict, tmp_path):
    strict.ask(ABSENT, actor=EMPLOYEE)
    old = (datetime.now(UTC) - timedelta(days=400)).isoformat(timespec="seconds")
    strict.insight_log.log_question(asked_at=old, user="x", role="", question="很久以前的问题", outcome="zero_hit",
                                    hit_count=0, cited_docs=[], nearest={})
    assert len(strict.insight_log.question_rows()) == 2
    strict.knowledge_gaps(actor=HR)  # reading applies the retention too
    assert [r["question"] for r in strict.insight_log.question_rows()] == [ABSENT]
    none_kept = fake_assistant_with_samples(tmp_path / "none", answer_threshold=0.99, question_retention_days=0)
    none_kept.ask(ABSENT, actor=EMPLOYEE)
    assert none_kept.insight_log.question_rows() == []


def test_user_names_reach_administrators_only(strict):
    strict.ask(ABSENT, actor=EMPLOYEE)
    assert strict.knowledge_gaps(actor=HR)[0].users == []
    assert strict.knowledge_gaps(actor=ADMIN)[0].users == ["emp_wang"]
    trace = strict.ask(ABSENT, actor=EMPLOYEE)
    strict.record_feedback(trace, -1, actor=EMPLOYEE, reason="答非所问")
    assert strict.feedback_reviews(actor=HR)[0].user == ""
    assert strict.feedback_reviews(actor=ADMIN)[0].user == "emp_wang"
    assert "emp_wang" not in strict.export_insights("feedback", "csv", actor=HR).decode("utf-8-sig")


@pytest.mark.parametrize("action", [
    lambda a: a.knowledge_gaps(actor=EMPLOYEE),
    lambda a: a.feedback_reviews(actor=EMPLOYEE),
    lambda a: a.mark_feedback_reviewed([1], actor=EMPLOYEE),
    lambda a: a.add_standard_answer("班车？", "有。", actor=EMPLOYEE),
    lambda a: a.standard_answers(actor=EMPLOYEE),
    lambda a: a.delete_standard_answer("x", actor=EMPLOYEE),
    lambda a: a.usage(actor=EMPLOYEE),
    lambda a: a.export_insights("gaps", actor=EMPLOYEE),
])
def test_employees_are_refused_every_insight_action(assistant, action):
    with pytest.raises(PermissionDenied):
        action(assistant)


def test_a_dislike_with_a_reason_appears_in_the_review_list_unread_then_read(assistant):
    liked = assistant.ask("事假需要提前多久申请？", actor=EMPLOYEE)
    assistant.record_feedback(liked, 1, actor=EMPLOYEE)
    trace = assistant.ask("年假有几天？", actor=EMPLOYEE)
    assistant.record_feedback(trace, 1, actor=EMPLOYEE)  # changed their mind: the 👎 below replaces it
    assistant.record_feedback(trace, -1, actor=EMPLOYEE, reason="信息过时", comment="今年改成7天了")
    disliked = assistant.feedback_reviews(rating=-1, actor=HR)
    assert [(e.rating, e.reason, e.comment, e.unread) for e in disliked] == [(-1, "信息过时", "今年改成7天了", True)]
    assert disliked[0].docs == ["01_attendance_leave"]
    assert len(assistant.feedback_reviews(actor=HR)) == 2
    assert assistant.feedback_reviews(doc_id="01_attendance_leave", actor=HR)
    assert assistant.feedback_reviews(doc_id="02_overtime", actor=HR) == []
    # the office's tomorrow (`since` is a day of the office's zone): UTC's tomorrow is the office's today from 16:00 UTC
    tomorrow = (datetime.now(ZoneInfo(assistant.settings.timezone)) + timedelta(days=1)).date().isoformat()
    assert assistant.feedback_reviews(since=tomorrow, actor=HR) == []
    detail = assistant.feedback_detail(disliked[0].id, actor=HR)
    assert detail.trace["question"] == "年假有几天？" and detail.trace["hits"]
    assert "memories" not in detail.trace and "prompt" not in detail.trace
    assert assistant.mark_feedback_reviewed([disliked[0].id], actor=HR) == 1
    assert assistant.feedback_reviews(unread_only=True, actor=HR)[0].rating == 1
    assert assistant.feedback_reviews(rating=-1, actor=HR)[0].reviewed_at is not None
    # a dislike is a gap too
    assert assistant.knowledge_gaps(actor=HR)[0].kinds == {"disliked": 1}


def test_an_unknown_reason_or_date_is_refused_and_nothing_is_stored(assistant):
    trace = assistant.ask("年假有几天？", actor=EMPLOYEE)
    with pytest.raises(RagError, match="不认识的原因"):
        assistant.record_feedback(trace, -1, actor=EMPLOYEE, reason="太长了")
    assert assistant.feedback_reviews(actor=HR) == []
    with pytest.raises(RagError, match="日期格式"):
        assistant.knowledge_gaps(since="上个月", actor=HR)


def test_usage_counts_citations_and_never_cited_documents(assistant):
    assistant.ask("年假有几天？", actor=EMPLOYEE)
    assistant.ask("年假可以顺延吗？", actor=EMPLOYEE)
    report = assistant.usage(actor=HR)
    by_doc = {row["doc_id"]: row for row in report["documents"]}
    assert by_doc["01_attendance_leave"]["cited_30d"] == 2
    assert by_doc["01_attendance_leave"]["cited_90d"] == 2
    never = {d["doc_id"] for d in report["never_cited"]}
    assert "01_attendance_leave" not in never and "07_training" in never
    office_day = datetime.now(ZoneInfo(assistant.settings.timezone)).date().isoformat()  # the office's day, not UTC's
    assert report["per_day"] == [{"day": office_day, "questions": 2}]


def test_exports_open_in_a_spreadsheet(strict):
    strict.ask(ABSENT, actor=EMPLOYEE)
    trace = strict.ask(ABSENT, actor=EMPLOYEE)
    strict.record_feedback(trace, -1, actor=EMPLOYEE, reason="其他")
    for kind in ("gaps", "feedback", "usage"):
        book = load_workbook(io.BytesIO(strict.export_insights(kind, "xlsx", actor=HR)))
        rows = list(book.worksheets[0].values)
        assert len(rows) >= 2, kind
    gaps = list(load_workbook(io.BytesIO(strict.export_insights("gaps", "xlsx", actor=HR))).worksheets[0].values)
    header = gaps[0]
    assert gaps[1][header.index("代表问题")] == ABSENT  # Chinese column names, as HR reads them
    assert gaps[1][header.index("次数")] == 2  # two questions asked; the 👎 of the second marks it, no third
    assert gaps[1][header.index("类型")] == "没有命中 2，👎 评价 1"
    usage_book = load_workbook(io.BytesIO(strict.export_insights("usage", "xlsx", actor=HR)))
    assert usage_book.sheetnames == ["文档引用", "每日提问", "从未引用"]
    csv_text = strict.export_insights("gaps", "csv", actor=HR)
    assert csv_text.startswith("\ufeff".encode()) and ABSENT in csv_text.decode("utf-8-sig")
    with pytest.raises(RagError):
        strict.export_insights("everything", "xlsx", actor=HR)
