"""Review 250 of this stop's own fixes: a turn is judged by the version in effect today (a narrower version scheduled for
later hides nothing yet; a managers-only version replaced by a wider one whose day came hides nothing any more), and
a delete answered as an unknown id keeps the document's version history."""
from __future__ import annotations

import datetime as dt

from fakes import QueuedLLM, fake_assistant_with_samples
from test_audience_leaks import ADMIN, QUESTION, SECRET

from rag_core.facade.turn_access import HIDDEN_TURN
from rag_core.types import Principal

EMPLOYEE = Principal("emp_wang", "employee")
HR = Principal("hr_li", "hr")
V1 = "# 管理层差旅办法\n\n## 第一条 标准\n\n部门经理出差住宿标准为每晚八百元。\n".encode()
V2 = "# 管理层差旅办法\n\n## 第一条 标准\n\n部门经理出差住宿标准为每晚一千元。\n".encode()
POLICY = f"# 奖金发放办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()


def _asked(tmp_path):
    llm = QueuedLLM()
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    done = a.ingest_bytes(POLICY, "奖金发放办法.txt", audience=("all",), actor=ADMIN)
    assert done.ok
    llm.enqueue(f"{SECRET}。[资料1]")
    first = a.ask(QUESTION, user="emp_wang", remember=False, actor=EMPLOYEE, conversation="e1")
    assert SECRET in first.answer
    return a, llm, done


def test_future_scheduled_narrower_version_hides_turn_quoting_version_in_effect(tmp_path):
    a, llm, done = _asked(tmp_path)
    later = (dt.date.today() + dt.timedelta(days=30)).isoformat()
    rep = a.ingest_bytes(POLICY.replace("三月".encode(), "四月".encode()), "奖金发放办法.txt", audience=("managers",),
                         doc_id=done.doc_id, effective_date=later, actor=ADMIN)
    assert rep.ok, rep
    # the employee still gets the in-effect version from search today
    assert any(SECRET in h.chunk.text for h in a.search(QUESTION, actor=EMPLOYEE).hits)  # still in effect for them
    _, [trace] = a.open_conversation("e1", actor=EMPLOYEE)
    assert trace.answer != HIDDEN_TURN


def test_reupload_same_audience_keeps_turn(tmp_path):
    a, llm, done = _asked(tmp_path)
    rep = a.ingest_bytes(POLICY.replace("三月".encode(), "四月".encode()), "奖金发放办法.txt", audience=("all",),
                         doc_id=done.doc_id, actor=ADMIN)
    assert rep.ok
    _, [trace] = a.open_conversation("e1", actor=EMPLOYEE)
    assert trace.answer != HIDDEN_TURN


def test_superseded_managers_version_hides_employee_turns_forever(tmp_path):
    """v1 for managers; v2 for everyone scheduled, its day has come (v1 stays 'current' in the catalog, seen by no one).
    An employee asks and is answered from v2; reopening hides it."""
    import sqlite3
    llm = QueuedLLM()
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    one = a.ingest_bytes(POLICY, "奖金发放办法.txt", audience=("managers",), actor=ADMIN)
    later = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    two = a.ingest_bytes(POLICY.replace("三月".encode(), "四月".encode()), "奖金发放办法.txt", audience=("all",),
                         doc_id=one.doc_id, effective_date=later, actor=ADMIN)
    assert two.ok
    db = sqlite3.connect(str(tmp_path / "s" / "catalog.sqlite3"))   # three days pass
    past = (dt.date.today() - dt.timedelta(days=1)).isoformat()
    db.execute("UPDATE documents SET effective_date=? WHERE doc_id=? AND version=2", (past, one.doc_id))
    db.commit()
    llm.enqueue(f"{SECRET}，次年四月发放。[资料1]")
    first = a.ask(QUESTION, user="emp_wang", remember=False, actor=EMPLOYEE, conversation="e1")
    assert "四月" in first.answer
    _, [trace] = a.open_conversation("e1", actor=EMPLOYEE)
    assert trace.answer != HIDDEN_TURN


def test_future_scheduled_narrower_version_drops_context_of_next_question(tmp_path):
    a, llm, done = _asked(tmp_path)
    later = (dt.date.today() + dt.timedelta(days=30)).isoformat()
    assert a.ingest_bytes(POLICY, "奖金发放办法.txt", audience=("managers",), doc_id=done.doc_id,
                          effective_date=later, actor=ADMIN).ok
    llm.enqueue("x").enqueue("x").enqueue("x")
    second = a.ask("那副经理呢？", user="emp_wang", remember=False, actor=EMPLOYEE, conversation="e1")
    assert "年终奖" in second.search_question


def test_control_followup_glues_without_scheduled_version(tmp_path):
    a, llm, done = _asked(tmp_path)
    llm.enqueue("x").enqueue("x").enqueue("x")
    second = a.ask("那副经理呢？", user="emp_wang", remember=False, actor=EMPLOYEE, conversation="e1")
    assert "年终奖" in second.search_question
def test_hr_delete_of_hidden_document_keeps_its_version_history(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    one = a.ingest_bytes(V1, "管理层差旅办法.txt", audience=("managers",), actor=ADMIN)
    two = a.ingest_bytes(V2, "管理层差旅办法.txt", audience=("managers",), doc_id=one.doc_id, actor=ADMIN)
    assert one.ok and two.ok
    before = a.document_changes(one.doc_id, actor=ADMIN)
    assert a.delete_document(one.doc_id, actor=HR) == 0     # answered as an unknown id
    assert [v.version for v in a.document_versions(one.doc_id, actor=ADMIN)] == [1, 2]  # the document stays
    after = a.document_changes(one.doc_id, actor=ADMIN)
    assert [(c.version, c.known) for c in after] == [(c.version, c.known) for c in before]


def test_hr_still_sees_a_rating_whose_policy_is_narrowed_only_from_a_later_day(tmp_path):
    """HR's views judge a policy by the version in effect today too: a managers-only version scheduled for next
    month does not hide today's rating of the version everyone reads."""
    a, llm, done = _asked(tmp_path)
    _, [trace] = a.open_conversation("e1", actor=EMPLOYEE)
    a.record_feedback(trace, -1, actor=EMPLOYEE, reason="答非所问")
    assert [e.question for e in a.feedback_reviews(actor=HR)] == [QUESTION]
    later = (dt.date.today() + dt.timedelta(days=30)).isoformat()
    assert a.ingest_bytes(POLICY, "奖金发放办法.txt", audience=("managers",), doc_id=done.doc_id,
                          effective_date=later, actor=ADMIN).ok
    assert [e.question for e in a.feedback_reviews(actor=HR)] == [QUESTION]
