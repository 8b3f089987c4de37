"""Stored standard answers are judged by today's rule for what an answer rests on (review rev-upgrade D2).

Adding and releasing refuse an answer for readers wider than a document it rests on, but answers an older version
stored never met that check: after an upgrade an answer for everyone quoting a managers-only clause was served to
every employee, and nothing held it (that document never changed). The answers here are written below the facade,
as an older version stored them, in a file without the record of the rule it was judged by."""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.insights.standard_checked import BASIS_RULE
from rag_core.types import Principal

ADMIN, EMP = Principal("wang", "admin"), Principal("zhang", "employee")
HR = Principal("li", "hr")  # reads all and hr, not managers
HR_M = Principal("zhao", "hr", audiences=("managers",))
SECRET = "部门经理年度绩效奖金为基本工资的4倍"
BONUS = f"# 经理奖金制度\n\n## 第一条 奖金比例\n\n{SECRET}，于次年三月发放。\n".encode()
LEAVE = "# 年假制度\n\n## 第一条 年假天数\n\n员工入职满一年后每年享有五天带薪年假。\n".encode()
QUESTION = "经理的年终奖是多少？"
LEAVE_Q = "年假有几天？"
CLAUSES = {  # each way an answer rests on the managers' document: a quoted run, its title, a recorded source
    "quoted": [f"第一条 奖金比例：{SECRET}，于次年三月发放。"],
    "named": ["见《经理奖金制度》第一条"],
    "source": ["见奖金的有关规定"],
}


def _old_store(tmp_path, how: str):
    """A data dir as an older version left it: an all-employees answer resting on the managers-only policy, and
    a sound one; the file carries no record of the rule its answers were judged by."""
    store = tmp_path / "store"
    a = fake_assistant(store)
    bonus = a.ingest_bytes(BONUS, "经理奖金制度.md", audience=("managers",), actor=ADMIN)
    assert a.ingest_bytes(LEAVE, "年假制度.md", actor=ADMIN).ok
    sources = [bonus.doc_id] if how == "source" else []
    bad = a.standard_store.add(QUESTION, f"{SECRET}。", author="hr", created_at="2026-11-01T00:00:00+00:00",
                               clauses=CLAUSES[how], sources=sources)  # below the facade: no check
    good = a.standard_store.add(LEAVE_Q, "每年五天带薪年假。", author="hr", created_at="2026-11-01T00:00:00+00:00",
                                clauses=["《年假制度》第一条 年假天数"])
    db = sqlite3.connect(str(store / "standard_answers.sqlite3"))
    db.execute("DROP TABLE IF EXISTS standard_meta")  # the older version's file had none
    db.commit()
    db.close()
    return store, bad, good


def _served(a, question: str) -> str:
    """The standard answer an employee is served, or "" (the policy search answered)."""
    trace = a.ask(question, user="", remember=False, actor=EMP)
    return trace.answer if trace.standard_answer else ""


@pytest.mark.parametrize("how", list(CLAUSES))
def test_fix60_an_old_answer_resting_on_a_narrower_document_is_held_not_served(tmp_path, how):
    store, bad, good = _old_store(tmp_path, how)
    again = fake_assistant(store)
    assert SECRET not in _served(again, QUESTION)  # not even before anyone has opened the 标准答复 page
    assert "五天" in _served(again, LEAVE_Q)  # judged as the store opened: the sound one is served from the start
    # HR who cannot read the managers' policy is not shown the answer that quotes it (review 333), nor its hold
    assert bad.id not in again.standard_answer_holds(actor=HR)
    assert bad.id not in {e.id for e in again.standard_answers(actor=HR)}
    assert "《经理奖金制度》只给管理者看" in again.standard_answer_holds(actor=HR_M)[bad.id]
    assert bad.id in {e.id for e in again.standard_answers(actor=HR_M)}
    assert good.id not in again.standard_answer_holds(actor=HR)
    assert SECRET not in _served(again, QUESTION)
    assert "五天" in _served(again, LEAVE_Q)  # the sound answer is served as before
    assert any("1 条" in n and "标准答复" in n for n in again.store_notices), again.store_notices
    with pytest.raises(RagError, match=f"没有编号为 {bad.id} 的标准答复"):  # as an unknown id
        again.release_standard_answer(bad.id, actor=HR)
    with pytest.raises(RagError, match=f"没有编号为 {bad.id} 的标准答复"):
        again.delete_standard_answer(bad.id, actor=HR)
    with pytest.raises(RagError, match="《经理奖金制度》"):
        again.release_standard_answer(bad.id, actor=HR_M)
    assert SECRET not in _served(again, QUESTION)


def test_fix60_the_judgement_is_recorded_once_per_rule(tmp_path):
    store, bad, _ = _old_store(tmp_path, "quoted")
    fake_assistant(store).standard_answers(actor=HR)  # judged (held) at this start
    db = sqlite3.connect(str(store / "standard_answers.sqlite3"))
    assert db.execute("SELECT value FROM standard_meta").fetchall() == [(BASIS_RULE,)]
    db.close()
    later = fake_assistant(store)
    assert bad.id in later.standard_answer_holds(actor=HR_M)
    assert not later.store_notices or not any("复核" in n for n in later.store_notices)  # nothing new to say


def test_fix60_a_new_file_is_judged_from_the_start(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(LEAVE, "年假制度.md", actor=ADMIN).ok
    a.add_standard_answer(LEAVE_Q, "每年五天带薪年假。", clauses=["《年假制度》第一条 年假天数"], actor=HR)
    assert "五天" in _served(fake_assistant(tmp_path / "store"), LEAVE_Q)
