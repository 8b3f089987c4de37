"""A standard answer quoting a managers-only clause word for word rests on that document (review 60 #2).

The hold (`standard_versions.outdated`) counted a quoted run of the policy as resting on it, the add and release check
(`narrower_basis`) only titles and recorded sources: an answer for everyone quoting the managers' clause without naming
the document was added and served to every employee, and released again after the hold."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.types import Principal

ADMIN, EMP = Principal("wang", "admin"), Principal("zhang", "employee")
HR = Principal("li", "hr")  # reads all and hr, not managers
HR_M = Principal("zhao", "hr", audiences=("managers",))
SECRET = "部门经理年终奖为年薪的百分之四十"
BONUS = f"# 管理层绩效奖金办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()
QUOTE = f"第一条 年终奖：{SECRET}，次年三月发放。"
QUESTION = "部门经理年终奖是年薪的多少？"


def served(a) -> str:
    return str(a.ask(QUESTION, user="", remember=False, actor=EMP).standard_answer or "")


@pytest.mark.parametrize("actor", [HR_M, ADMIN], ids=["hr-reading-managers", "admin"])
def test_fix60_adding_an_answer_for_all_that_quotes_a_managers_clause_is_refused(tmp_path, actor):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    with pytest.raises(RagError, match="《管理层绩效奖金办法》（只给管理者看）"):
        a.add_standard_answer(QUESTION, "见依据。", clauses=[QUOTE], actor=actor)
    assert SECRET not in served(a)
    a.add_standard_answer(QUESTION, "见依据。", clauses=[QUOTE], audience=["managers"], actor=actor)  # its readers


def test_fix60_releasing_an_answer_quoting_a_clause_since_narrowed_is_refused(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "管理层绩效奖金办法.txt", actor=ADMIN).ok  # everyone read it when the answer was added
    entry = a.add_standard_answer(QUESTION, "见依据。", clauses=[QUOTE], actor=HR_M)
    assert a.ingest_bytes(BONUS, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    seen = a.standard_answer_holds(actor=HR_M)[entry.id]
    assert "缩小了可见范围" in seen
    with pytest.raises(RagError, match="《管理层绩效奖金办法》（只给管理者看）"):
        a.release_standard_answer(entry.id, seen=seen, actor=HR_M)
    with pytest.raises(RagError, match=f"没有编号为 {entry.id} 的标准答复"):  # held for a document they cannot read
        a.release_standard_answer(entry.id, actor=HR)
    # review 333: HR outside the new audience no longer sees its text or clauses (nor may delete it and add it again)
    assert entry.id not in {e.id for e in a.standard_answers(actor=HR)} and entry.id not in a.standard_answer_holds(actor=HR)
    assert SECRET not in served(a)


def test_fix60_a_quote_a_copy_everyone_reads_also_carries_is_allowed(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    assert a.ingest_bytes(BONUS, "奖金办法公开版.txt", actor=ADMIN).ok
    a.add_standard_answer(QUESTION, "见依据。", clauses=[QUOTE], actor=ADMIN)
    assert SECRET in served(a)


def test_fix60_an_hr_person_who_cannot_read_the_document_may_add_their_own_words(tmp_path):
    """Nothing to leak: they cannot know the hidden text, the words are their own (and the answer is the same as
    when no such document exists)."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    a.add_standard_answer(QUESTION, "见依据。", clauses=[QUOTE], actor=HR)
