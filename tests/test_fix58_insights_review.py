"""Review 210 of HR's improvement loop: a policy narrowed after a question was asked hides its clause from HR in
知识缺口 and 反馈审阅 as search does; the exports hold the rows the page shows (its filters); a start date after the
end date is an error, not an empty list; the audit trail refuses text that is not a time or a number."""

from __future__ import annotations

import csv
import io

import pytest
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core.errors import RagError
from rag_core.types import Principal

ADMIN, HR, EMP = Principal("boss", "admin"), Principal("hr_li", "hr"), Principal("emp", "employee")
SECRET = "部门经理年终奖为年薪的百分之四十"
DOC = f"# 奖金办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()
QUESTION = "部门经理年终奖是年薪的多少？"


def _narrowed(a) -> None:
    assert a.ingest_bytes(DOC + "补充。\n".encode(), "奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    assert a.list_documents(actor=HR) == []


def test_a_narrowed_policy_leaves_the_gap_page_clause_hidden_from_hr(tmp_path):
    a = fake_assistant(tmp_path / "s", answer_threshold=0.99)  # every question a gap, its nearest clause kept
    assert a.ingest_bytes(DOC, "奖金办法.txt", audience=("all",), actor=ADMIN).ok
    a.ask(QUESTION, user="emp", remember=False, actor=EMP)
    assert SECRET in a.knowledge_gaps(actor=HR)[0].nearest.get("text", "")
    _narrowed(a)
    [group] = a.knowledge_gaps(actor=HR)
    assert SECRET not in str(group.nearest) and group.representative == QUESTION  # the question stays
    assert SECRET in a.knowledge_gaps(actor=ADMIN)[0].nearest.get("text", "")


def test_a_narrowed_policy_hides_the_rated_answer_from_hr(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(DOC, "奖金办法.txt", audience=("all",), actor=ADMIN).ok
    trace = a.ask(QUESTION, user="emp", remember=False, actor=EMP)
    assert SECRET in trace.answer
    a.record_feedback(trace, -1, actor=EMP, reason="答非所问")
    [entry] = a.feedback_reviews(actor=HR)
    _narrowed(a)
    assert all(SECRET not in e.answer for e in a.feedback_reviews(actor=HR))
    with pytest.raises(RagError):
        a.feedback_detail(entry.id, actor=HR)
    assert a.feedback_reviews(actor=ADMIN)


def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_the_exports_hold_the_rows_the_pages_show(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    for q in ["年假有几天？", "加班费怎么算？", "火星出差补贴多少？", "公司养猫吗？"]:
        a.ask(q, user="emp", remember=False, actor=EMP)
    shown = a.knowledge_gaps(include_weak=True, actor=HR)
    assert len(_rows(a.export_insights("gaps", "csv", include_weak=True, actor=HR))) - 1 == len(shown)
    up = a.ask("年假有几天？", user="emp", remember=False, actor=EMP)
    down = a.ask("加班费怎么算？", user="emp", remember=False, actor=EMP)
    a.record_feedback(up, 1, actor=EMP)
    a.record_feedback(down, -1, actor=EMP, reason="答非所问")
    page = a.feedback_reviews(rating=-1, actor=HR)
    rows = _rows(a.export_insights("feedback", "csv", rating=-1, actor=HR))
    assert len(rows) - 1 == len(page) == 1
    assert len(_rows(a.export_insights("feedback", "csv", actor=HR))) - 1 == 2


@pytest.mark.parametrize("call", ["knowledge_gaps", "feedback_reviews"])
def test_a_start_after_the_end_is_an_error(tmp_path, call):
    a = fake_assistant(tmp_path / "s")
    with pytest.raises(RagError, match="晚于结束日期"):
        getattr(a, call)(since="2030-01-01", until="2020-01-01", actor=HR)


@pytest.mark.parametrize("kwargs", [{"since": "yesterday"}, {"until": "2026-13-45"}, {"offset": "abc"},
                                    {"limit": "ten"}])
def test_the_audit_trail_refuses_what_is_not_a_time_or_a_number(tmp_path, kwargs):
    a = fake_assistant(tmp_path / "s")
    a.audit_entries(actor=ADMIN)
    with pytest.raises(RagError):
        a.audit_entries(actor=ADMIN, **kwargs)
    assert a.audit_entries(since="2020-01-01", until="2999-01-01T00:00:00", actor=ADMIN) is not None


def test_a_rating_filter_other_than_up_or_down_is_an_error(tmp_path):
    a = fake_assistant(tmp_path / "s")
    with pytest.raises(RagError, match="评价只能是"):
        a.feedback_reviews(rating=0, actor=HR)


def test_an_employee_asking_for_an_export_is_refused_before_the_format_is_read(tmp_path):
    from rag_core.errors import PermissionDenied

    a = fake_assistant(tmp_path / "s")
    a.add_user("boss", "admin", "correct horse", (), actor=ADMIN)
    a.add_user("emp", "employee", "correct horse", (), actor=ADMIN)
    with pytest.raises(PermissionDenied):
        a.export_insights("nonsense", "pdf", actor=EMP)


@pytest.mark.parametrize(("question", "answer"), [("？？？", "年假5天。"), ("年假有几天", "！！！")])
def test_a_standard_answer_without_words_is_refused(tmp_path, question, answer):
    a = fake_assistant(tmp_path / "s")
    with pytest.raises(RagError, match="没有文字或数字"):
        a.add_standard_answer(question, answer, actor=HR)


def test_the_list_judges_a_narrowed_near_miss_as_the_detail_does(tmp_path):
    """Review 211: the list rows carry no trace, so a narrowed document shown only as a near miss hid the detail
    but not the row (and the gap page kept its 👎)."""
    bonus = f"# 奖金办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。年假期间照发。\n".encode()
    leave = "# 休假办法\n\n## 第一条 年假\n\n员工每年享有带薪年假五天，年假应提前申请。\n".encode()
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(leave, "休假办法.txt", audience=("all",), actor=ADMIN).ok
    assert a.ingest_bytes(bonus, "奖金办法.txt", audience=("all",), actor=ADMIN).ok
    trace = a.ask("年假有几天？", user="emp", remember=False, actor=EMP)
    assert [h.chunk.doc_id for h in trace.search.near_misses] == ["奖金办法"]
    a.record_feedback(trace, -1, actor=EMP, reason="答非所问")
    assert [g.kinds.get("disliked") for g in a.knowledge_gaps(actor=HR)] == [1]
    assert a.ingest_bytes(bonus + "补充。\n".encode(), "奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    assert a.feedback_reviews(actor=HR) == []
    assert not any(g.kinds.get("disliked") for g in a.knowledge_gaps(actor=HR))
    assert len(a.feedback_reviews(actor=ADMIN)) == 1


@pytest.mark.parametrize(("since", "until"), [("2030-01-01", "2020-01-01")])
def test_a_reversed_audit_window_is_an_error(tmp_path, since, until):
    from datetime import date

    a = fake_assistant(tmp_path / "s")
    with pytest.raises(RagError, match="晚于"):
        a.audit_entries(since=date.fromisoformat(since), until=date.fromisoformat(until), actor=ADMIN)
    with pytest.raises(RagError, match="晚于"):
        a.audit_entries(since=since, until=until, actor=ADMIN)
    assert a.audit_entries(since=date.fromisoformat(until), until=date.fromisoformat(until), actor=ADMIN) is not None


def _dislike_given_on(tmp_path, stamp: str):
    """An employee's 👎 (no reason yet), moved back to `stamp`: (assistant, the rated trace, the review row)."""
    a = fake_assistant(tmp_path / "s", answer_threshold=0.99)
    assert a.ingest_bytes(DOC, "奖金办法.txt", audience=("all",), actor=ADMIN).ok
    trace = a.ask(QUESTION, user="emp", conversation="c1", actor=EMP)
    a.record_feedback(trace, -1, actor=EMP)
    [entry] = a.feedback_reviews(actor=ADMIN)
    a.insight_log._db.execute("UPDATE feedback SET created_at = ?", (stamp,))
    a.insight_log._db.commit()
    return a, trace, entry


def test_adding_a_reason_keeps_the_time_the_dislike_was_given(tmp_path):
    from datetime import timedelta

    from rag_core.documents.catalog import office_day

    given = office_day() - timedelta(days=5)  # a while ago, inside the 180 days questions are kept (a fixed day left)
    a, trace, first = _dislike_given_on(tmp_path, f"{given}T04:00:00+00:00")  # noon in Beijing: the same office day
    a.record_feedback(trace, -1, actor=EMP, reason="其他", comment="没说清楚")
    [later] = a.feedback_reviews(since=str(given - timedelta(days=1)), actor=ADMIN)
    assert later.id == first.id and later.created_at.startswith(str(given)) and later.comment == "没说清楚"
    a.record_feedback(trace, 1, actor=EMP)  # a flip is a new rating: its own time
    assert not a.feedback_reviews(since=str(given - timedelta(days=1)), until=str(given + timedelta(days=1)), actor=ADMIN)


def test_the_audit_trail_says_an_upload_and_the_sample_import_in_chinese(tmp_path):
    from ui.state import person_name

    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(DOC, "奖金办法.txt", actor=ADMIN).ok
    assert a.ingest_bytes(DOC, "奖金办法.txt", actor=ADMIN).ok  # the same text again
    details = [e.detail for e in a.audit_entries(action="document.upload", actor=ADMIN)]
    assert any("已索引" in d for d in details) and any("内容未变" in d for d in details)
    assert not any("indexed" in d or "unchanged" in d for d in details)
    assert person_name("system").startswith("系统") and person_name("local") == "本机用户"


def test_an_incomplete_answer_is_a_reason_of_its_own(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert "回答不完整" in a.feedback_reasons
    assert a.ingest_bytes(DOC, "奖金办法.txt", actor=ADMIN).ok
    trace = a.ask(QUESTION, user="emp", conversation="c1", actor=EMP)
    a.record_feedback(trace, -1, actor=EMP, reason="回答不完整")
    assert a.feedback_reviews(actor=ADMIN)[0].reason == "回答不完整"


def test_a_reason_for_a_dislike_hr_already_read_comes_back_into_the_window(tmp_path):
    """Review 213: the row turned unread again but kept its old time, outside 反馈审阅's 30 days."""
    from datetime import timedelta

    from rag_core.documents.catalog import office_day

    a, trace, entry = _dislike_given_on(tmp_path, "2026-10-20T01:00:00+00:00")  # 40-odd days ago
    a.mark_feedback_reviewed([entry.id], actor=ADMIN)
    a.record_feedback(trace, -1, actor=EMP, reason="回答不完整", comment="少了一档")
    today = office_day()  # the day the pages filter by: the machine's date is a day behind from 16:00 UTC
    [back] = a.feedback_reviews(since=today - timedelta(days=30), until=today, actor=ADMIN)
    assert back.unread and back.reason == "回答不完整"
