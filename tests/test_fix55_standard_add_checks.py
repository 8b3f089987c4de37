"""`add_standard_answer` runs the checks a release runs (review 167, defects 5 and 6): an answer for everyone resting
on an HR-only document is refused (an employee was served 经理级员工年终奖为六个月工资 from 《薪酬内部细则》), and
a second answer to the same question for the same readers is refused (HR's correction was never served, and a
form clicked twice stored the answer twice)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
SECRET = "# 薪酬内部细则\n\n第三条 经理级员工年终奖为六个月工资，不对外公开。\n".encode()
LEAVE = "# 婚假制度\n\n第一条 员工结婚可休婚假十天。\n".encode()


def test_fix55_an_answer_for_everyone_on_an_hr_only_document_is_refused_when_added(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(SECRET, "薪酬内部细则.md", audience=["hr"], actor=HR).ok
    with pytest.raises(RagError, match="薪酬内部细则"):
        a.add_standard_answer("经理年终奖几个月", "经理级员工年终奖为六个月工资。", clauses=["《薪酬内部细则》第三条"], actor=HR)
    assert a.standard_answers(actor=HR) == []
    assert a.ask("经理年终奖几个月", user="", remember=False, actor=EMP).answerer != "标准答复"
    kept = a.add_standard_answer("经理年终奖几个月", "经理级员工年终奖为六个月工资。", clauses=["《薪酬内部细则》第三条"],
                                 audience=["hr"], actor=HR)  # for the readers of that document: allowed
    assert [e.id for e in a.standard_answers(actor=HR)] == [kept.id]


def test_fix55_the_same_question_for_the_same_readers_is_refused_naming_the_first(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(LEAVE, "婚假制度.md", actor=HR).ok
    first = a.add_standard_answer("婚假有几天？", "婚假3天。", actor=HR)
    with pytest.raises(RagError, match=first.id):
        a.add_standard_answer("婚假有几天", "婚假10天。", actor=HR)
    assert [e.answer for e in a.standard_answers(actor=HR)] == ["婚假3天。"]
    a.delete_standard_answer(first.id, actor=HR)  # the way to correct it
    a.add_standard_answer("婚假有几天", "婚假10天。", actor=HR)
    assert a.ask("婚假有几天", user="", remember=False, actor=EMP).answer.startswith("婚假10天")
