"""Deleting a document holds the standard answers resting on it without naming it: a clause naming only an article
the document had (第七条 年假天数, 考勤制度第七条), and one quoting a run of its text that no live document still has.
Before, only answers recorded as written from it or naming it were held, so deleting the only document with the
cited article left the answer served, quoting a policy that no longer exists (review 206)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.types import Principal

HR = Principal("li", "hr")
SAMPLES = Path(__file__).resolve().parent.parent / "data/samples"
SRC = (SAMPLES / "01_attendance_leave.md").read_text(encoding="utf-8")
OVERTIME = (SAMPLES / "02_overtime.md").read_bytes()
ANSWER = "满1年不满10年的，每年带薪年假5天。"
RUN = "已满1年不满10年的，每年可享受带薪年假5天"


@pytest.fixture()
def assistant(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert RUN in SRC
    assert a.ingest_bytes(SRC.encode(), "考勤与休假管理制度.md", actor=HR).ok
    assert a.ingest_bytes(OVERTIME, "加班管理办法.md", actor=HR).ok
    return a


def _doc(a, source: str) -> str:
    return next(d.doc_id for d in a.list_documents(actor=HR) if d.source.startswith(source))


@pytest.mark.parametrize("clause", ["第七条 年假天数", "考勤制度第七条", "《考勤休假制度》第七条", RUN])
def test_deleting_the_document_holds_an_answer_citing_it_unnamed(assistant, clause):
    sid = assistant.add_standard_answer("年假有几天", ANSWER, clauses=[clause], actor=HR).id
    assert sid not in assistant.standard_answer_holds(actor=HR)
    assistant.delete_document(_doc(assistant, "考勤与休假管理制度"), actor=HR)
    assert sid in assistant.standard_answer_holds(actor=HR)


def test_a_quoted_run_another_live_document_still_has_keeps_the_answer(assistant):
    assert assistant.ingest_bytes(SRC.encode(), "考勤制度副本.md", actor=HR).ok
    sid = assistant.add_standard_answer("年假有几天", ANSWER, clauses=[RUN], actor=HR).id
    assistant.delete_document(_doc(assistant, "考勤与休假管理制度"), actor=HR)
    assert sid not in assistant.standard_answer_holds(actor=HR)


def test_deleting_a_document_without_the_article_or_run_holds_nothing(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(SRC.encode(), "考勤与休假管理制度.md", actor=HR).ok
    assert a.ingest_bytes("# 通知\n\n公司年会定于12月举行。\n".encode(), "年会通知.md", actor=HR).ok
    article = a.add_standard_answer("年假有几天", ANSWER, clauses=["第七条 年假天数"], actor=HR).id
    quoting = a.add_standard_answer("年假一年几天", ANSWER, clauses=[RUN], actor=HR).id
    named_other = a.add_standard_answer("加班怎么算", "按规定支付。", clauses=["《考勤与休假管理制度》第七条"], actor=HR).id
    a.delete_document(_doc(a, "年会通知"), actor=HR)
    holds = a.standard_answer_holds(actor=HR)
    assert not {article, quoting, named_other} & set(holds)


def test_an_answer_recorded_from_a_live_document_is_not_held_for_another_ones_article(assistant):
    """Review 211: 第三条 of a recorded source still live is that document's 第三条, not the deleted one's."""
    overtime = _doc(assistant, "加班管理办法")
    sid = assistant.add_standard_answer("加班的基本原则是什么", "加班应遵循自愿、必要、事先审批的原则。",
                                        clauses=["第三条 基本原则"], sources=[overtime], actor=HR).id
    assistant.delete_document(_doc(assistant, "考勤与休假管理制度"), actor=HR)
    assert sid not in assistant.standard_answer_holds(actor=HR)


def test_a_copy_only_managers_read_does_not_keep_an_answer_for_everyone(assistant):
    """Review 211: the answer's readers must be able to read the live copy that keeps it served."""
    admin = Principal("wang", "admin")
    assert assistant.ingest_bytes(SRC.encode(), "经理版考勤制度.md", audience=("managers",), actor=admin).ok
    quoting = assistant.add_standard_answer("年假有几天", ANSWER, clauses=[RUN], actor=HR).id
    article = assistant.add_standard_answer("年假一年几天", ANSWER, clauses=["第七条 年假天数"], actor=HR).id
    assistant.delete_document(_doc(assistant, "考勤与休假管理制度"), actor=HR)
    holds = assistant.standard_answer_holds(actor=admin)
    assert quoting in holds and article in holds
