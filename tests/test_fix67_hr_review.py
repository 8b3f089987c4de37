"""Review 348's standard-answer defects (fake embedder, real stores, AppTest for the page). Each test is one of the
review's reproductions and failed before the fix:

- review 348 #1: with any 依据 line, the answer's own text was never checked. An answer copying a clause word for
  word was added for readers who may not read that clause, and kept in use when the copied policy was narrowed or
  deleted (a blank 依据 refused or held it).
- review 348 #2: 反馈审阅 → 查看完整依据 showed the stored UTC times (+00:00) in its JSON, not local times.
- review 348 #3: the refusal for an audience the HR person cannot read named the internal label (managers), not
  管理者.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from app_support import logged_in_with
from fakes import fake_assistant_with_samples

from rag_core import Principal, RagError

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PASSWORD = "correct horse"
ADMIN, HR, EMP = Principal("wang", "admin"), Principal("li", "hr"), Principal("zhang", "employee")
HR_MANAGERS = Principal("mei", "hr", ("managers",))
PHONE_POLICY = "# 通讯补贴规定\n\n第一条 全体员工每月享有通讯补贴二百元，随工资发放。\n\n第二条 补贴标准每年复核一次。\n".encode()
MANAGERS_POLICY = ("# 管理人员通讯补贴规定\n\n第一条 部门经理每月享有通讯补贴八百元，随工资发放。\n\n"
                   "第二条 补贴标准每年复核一次。\n").encode()
PHONE_QUESTION = "通讯补贴是多少？"
STORED_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)")
COPIED = "员工每月享有通讯补贴二百元，随工资发放。"  # a verbatim run of 《通讯补贴规定》第一条


def served(a, question: str) -> str | None:
    """The standard answer an employee is given for `question`, or None when none is served."""
    trace = a.ask(question, user="", remember=False, actor=EMP)
    return trace.answer if trace.outcome == "standard" else None


def test_an_answer_copying_a_clause_is_held_when_that_policy_is_narrowed(tmp_path) -> None:
    """#1 (narrowed): the 依据 is a bare 第一条, the text copies the clause. Re-uploaded for managers only, the policy
    is one employees may no longer read: the answer is held, as it is with a blank 依据."""
    a = fake_assistant_with_samples(tmp_path / "store")
    assert a.ingest_bytes(PHONE_POLICY, "phone.md", audience=["all"], actor=HR_MANAGERS).ok
    entry = a.add_standard_answer(PHONE_QUESTION, COPIED, clauses=["第一条"], actor=HR)
    assert "二百元" in (served(a, PHONE_QUESTION) or "")
    assert a.ingest_bytes(PHONE_POLICY, "phone.md", audience=["managers"], actor=HR_MANAGERS).ok
    assert entry.id in a.standard_answer_holds(actor=ADMIN)
    assert served(a, PHONE_QUESTION) is None


def test_an_answer_copying_a_restricted_clause_is_refused_for_wider_readers(tmp_path) -> None:
    """#1 (add): HR of the managers audience adds a 全体员工 answer copying a managers-only clause. A bare 依据
    (第一条) must not let through what a blank 依据 refuses: nothing is stored and employees are served nothing."""
    a = fake_assistant_with_samples(tmp_path / "store")
    assert a.ingest_bytes(MANAGERS_POLICY, "mgr_phone.md", audience=["managers"], actor=HR_MANAGERS).ok
    question, answer = "经理的通讯补贴是多少？", "部门经理每月享有通讯补贴八百元，随工资发放。"
    with pytest.raises(RagError):  # the guard: a blank 依据 was refused before the fix too
        a.add_standard_answer(question, answer, actor=HR_MANAGERS, audience=["all"])
    with pytest.raises(RagError, match="管理人员通讯补贴规定"):
        a.add_standard_answer(question, answer, clauses=["第一条"], actor=HR_MANAGERS, audience=["all"])
    assert not any(e.answer == answer for e in a.standard_answers(actor=ADMIN))
    assert served(a, question) is None


def test_an_answer_copying_a_deleted_policy_is_held_whatever_its_basis_names(tmp_path) -> None:
    """#1 (deleted): the 依据 names another policy, the text copies 《通讯补贴规定》第一条. Once that policy is
    deleted, its words are no longer policy: the answer is held and not served."""
    a = fake_assistant_with_samples(tmp_path / "store")
    report = a.ingest_bytes(PHONE_POLICY, "phone.md", actor=HR)
    assert report.ok
    entry = a.add_standard_answer(PHONE_QUESTION, COPIED, clauses=["《星河科技有限公司薪酬与福利管理制度》"], actor=HR)
    assert "二百元" in (served(a, PHONE_QUESTION) or "")
    a.delete_document(report.doc_id, actor=HR)
    assert entry.id in a.standard_answer_holds(actor=ADMIN)
    assert served(a, PHONE_QUESTION) is None


def test_the_full_trace_on_the_feedback_review_page_shows_local_times(tmp_path, monkeypatch) -> None:
    """#2: the 👎 on a standard answer, opened with 查看完整依据: the JSON's times are in the office's zone like the
    rest of the page, not the stored UTC ISO strings (2026-12-07T10:21:55+00:00)."""
    a = fake_assistant_with_samples(tmp_path / "store")
    a.add_user("wang", "admin", PASSWORD)
    a.add_user("li", "hr", PASSWORD, actor=ADMIN)
    a.add_user("zhang", "employee", PASSWORD, actor=ADMIN)
    a.add_standard_answer(PHONE_QUESTION, "每月二百元。", actor=HR)
    trace = a.ask(PHONE_QUESTION, actor=EMP, user="zhang", conversation=a.new_conversation_id())
    assert trace.outcome == "standard", trace.outcome
    a.record_feedback(trace, -1, actor=EMP, reason="信息过时")
    [entry] = a.feedback_reviews(actor=HR)
    stored = json.dumps(a.feedback_detail(entry.id, actor=HR).trace, ensure_ascii=False)
    assert STORED_UTC.search(stored), "the guard: the stored trace carries UTC times"
    at = logged_in_with(a, APP, "li", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/feedback_review.py").run()
    next(t for t in at.toggle if t.label == "查看完整依据").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.json, "the full trace is shown"
    shown = json.dumps([json.loads(j.value) for j in at.json], ensure_ascii=False)
    assert not STORED_UTC.findall(shown), STORED_UTC.findall(shown)
    assert re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?\+08:00", shown)  # Asia/Shanghai


def test_the_refusal_for_an_unreadable_audience_names_it_in_chinese(tmp_path) -> None:
    """#3: an HR person who cannot read the managers audience adds an answer for it: the refusal says 管理者, as
    every other audience message does, not the internal label."""
    a = fake_assistant_with_samples(tmp_path / "store")
    with pytest.raises(RagError) as refused:
        a.add_standard_answer("经理补贴多少？", "八百元。", audience=["managers"], actor=HR)
    assert "管理者" in str(refused.value) and "managers" not in str(refused.value), str(refused.value)
