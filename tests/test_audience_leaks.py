"""Audiences hold in the HR loop: standard answers, feedback review, knowledge gaps and their exports.

A managers-only clause reaches a reader only when that reader may read the
managers' documents, whoever asked the question. Each test fails when its filter
is taken out of `rag_core/facade/insights.py` (checked by hand: the role argument
served the standard answer, and each reader listed the managers' text).
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core.errors import RagError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("emp_wang", "employee")
MANAGER = Principal("mgr_zhou", "employee", audiences=("managers",))
SECRET = "部门经理年终奖为年薪的百分之四十"
BONUS_POLICY = f"# 管理层绩效奖金办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()
QUESTION = "部门经理年终奖是年薪的多少？"


@pytest.fixture()
def assistant(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    assert a.ingest_bytes(BONUS_POLICY, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    return a


def _strict(tmp_path):
    """Every question is a gap (zero hits), its nearest clause kept for the gap page."""
    a = fake_assistant(tmp_path / "strict", answer_threshold=0.99)
    assert a.ingest_bytes(BONUS_POLICY, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    return a


def test_a_role_argument_never_widens_the_standard_answers_an_asker_gets(assistant):
    assistant.add_standard_answer("公司有班车吗？", "HR 内部口径：班车只给管理层。", audience=("hr",), actor=HR)
    own = assistant.ask("公司有班车吗？", user="", remember=False, actor=HR)
    assert own.answerer == "标准答复"
    trace = assistant.ask("公司有班车吗？", user="", role="hr", remember=False, actor=EMPLOYEE)
    assert trace.answerer != "标准答复" and "HR 内部口径" not in trace.answer


def test_hr_does_not_list_or_delete_a_managers_standard_answer(assistant):
    entry = assistant.add_standard_answer(QUESTION, SECRET, audience=("managers",), actor=ADMIN)
    assert [e.id for e in assistant.standard_answers(actor=ADMIN)] == [entry.id]
    assert assistant.standard_answers(actor=HR) == []
    with pytest.raises(RagError, match="没有编号"):
        assistant.delete_standard_answer(entry.id, actor=HR)
    assert [e.id for e in assistant.standard_answers(actor=ADMIN)] == [entry.id]


def test_feedback_on_a_managers_answer_is_not_shown_to_hr(assistant):
    trace = assistant.ask(QUESTION, user="", remember=False, actor=MANAGER)
    assert SECRET in trace.answer, "the manager's answer should quote the managers' clause"
    assistant.record_feedback(trace, -1, actor=MANAGER, reason="答非所问", comment="不对")
    [seen] = assistant.feedback_reviews(actor=ADMIN)
    assert SECRET in seen.answer
    assert assistant.feedback_reviews(actor=HR) == []
    with pytest.raises(RagError, match="没有编号"):
        assistant.feedback_detail(seen.id, actor=HR)
    assert assistant.mark_feedback_reviewed([seen.id], actor=HR) == 0
    assert SECRET.encode() not in assistant.export_insights("feedback", "csv", actor=HR)
    assert SECRET.encode() in assistant.export_insights("feedback", "csv", actor=ADMIN)


def test_a_rating_of_a_managers_standard_answer_is_not_shown_to_hr(tmp_path):
    """The answer is HR's own text, not a clause: its audience was not counted, and the search's sample clauses
    (for everyone) let HR read the managers' answer in 反馈审阅 and its export (helper-31 A1)."""
    assistant = fake_assistant_with_samples(tmp_path / "store")  # no managers' document: only the answer is theirs
    hidden = "管理层口径：部门经理年终奖为年薪的百分之四十"
    assistant.add_standard_answer(QUESTION, hidden, audience=("managers",), actor=ADMIN)
    trace = assistant.ask(QUESTION, user="", remember=False, actor=MANAGER)
    assert trace.answerer == "标准答复" and hidden in trace.answer
    assistant.record_feedback(trace, -1, actor=MANAGER, reason="答非所问")
    [seen] = assistant.feedback_reviews(actor=ADMIN)
    assert assistant.feedback_reviews(actor=HR) == []
    with pytest.raises(RagError, match="没有编号"):
        assistant.feedback_detail(seen.id, actor=HR)
    assert hidden.encode() not in assistant.export_insights("feedback", "csv", actor=HR)


def test_an_older_rating_of_a_standard_answer_is_shown_to_administrators_only(tmp_path):
    """A row stored before the standard answer's audience was kept is restricted when the store opens."""
    from rag_core.insights.log import InsightLog

    a = fake_assistant_with_samples(tmp_path / "store")
    a.add_standard_answer(QUESTION, "管理层口径", audience=("managers",), actor=ADMIN)
    trace = a.ask(QUESTION, user="", remember=False, actor=MANAGER)
    a.record_feedback(trace, -1, actor=MANAGER)
    path = a.insight_log._db.execute("PRAGMA database_list").fetchone()[2]
    with a.insight_log._lock:  # as a store written before: no audience in the trace, user_version 0
        row = a.insight_log._db.execute("SELECT trace FROM feedback").fetchone()[0]
        old = row.replace('"audience": ["managers"]', '"old": 1')
        a.insight_log._db.execute("UPDATE feedback SET trace = ?, audiences = '[[\"all\"]]'", (old,))
        a.insight_log._db.execute("PRAGMA user_version = 0")
        a.insight_log._db.commit()
    a.insight_log.close()
    a.__dict__["_insight_log"] = InsightLog(path)  # the store opened again
    assert a.feedback_reviews(actor=HR) == []
    assert len(a.feedback_reviews(actor=ADMIN)) == 1


def test_an_older_feedback_row_without_audiences_falls_back_to_its_documents(assistant):
    trace = assistant.ask(QUESTION, user="", remember=False, actor=MANAGER)
    assistant.record_feedback(trace, -1, actor=MANAGER)
    with assistant.insight_log._lock:  # as a store written before audiences were kept
        assistant.insight_log._db.execute("UPDATE feedback SET audiences = NULL, trace = '{}'")
        assistant.insight_log._db.commit()
    assert assistant.feedback_reviews(actor=HR) == []
    assert len(assistant.feedback_reviews(actor=ADMIN)) == 1


def test_a_gaps_nearest_clause_is_kept_from_readers_of_other_audiences(tmp_path):
    a = _strict(tmp_path)
    trace = a.ask(QUESTION, user="", remember=False, actor=MANAGER)
    assert trace.hit_count == 0 and trace.search.near_misses, "the managers' clause should be the near miss"
    [admin_group] = a.knowledge_gaps(actor=ADMIN)
    assert SECRET in admin_group.nearest["text"]
    [hr_group] = a.knowledge_gaps(actor=HR)
    assert hr_group.representative == QUESTION and hr_group.nearest == {}
    assert SECRET.encode() not in a.export_insights("gaps", "csv", actor=HR)
    assert "管理层绩效奖金办法".encode() not in a.export_insights("gaps", "csv", actor=HR)


def test_a_name_clash_with_a_document_hr_may_not_read_does_not_name_that_document(tmp_path):
    """The refusal of a file name that maps onto an existing document's id named that document's file, also to
    someone who may not read it and does not see it listed (helper-31 A4)."""
    a = fake_assistant(tmp_path / "store")
    secret_name = "2027 裁员计划（绝密）.md"
    assert a.ingest_bytes("# 管理层 2027 裁员计划\n\n## 第一条\n\n计划裁减三十人。\n".encode(), secret_name,
                          audience=("managers",), actor=ADMIN).ok
    assert a.list_documents(actor=HR) == []
    for refusal in (a.estimate_ingest(b"x", "2027_裁员计划_绝密_.txt", actor=HR).error,
                    a.ingest_bytes("第一条 x\n".encode(), "2027_裁员计划_绝密_.txt", actor=HR).error):
        assert refusal and secret_name not in refusal and "裁员计划（绝密）" not in refusal, refusal
    own = a.estimate_ingest(b"x", "2027_裁员计划_绝密_.txt", actor=ADMIN).error
    assert secret_name in own  # who may read it is told which document it clashes with


class _Repeating:
    """An LLM that repeats what its prompt holds: the managers' answer of an earlier turn, and folds it into the
    rewrite of a follow-up."""

    name = "repeating"

    def complete(self, prompt, **kwargs):
        if "【最后一个问题】" in prompt:  # the rewrite prompt
            return f"{SECRET}，那副经理的年终奖呢？"
        return self._reply(prompt)

    def _reply(self, prompt):
        if SECRET in prompt and "年假" in prompt[-300:]:
            return f"年假按工龄计算 [资料1]。另外如前所述，{SECRET}。"
        return f"根据制度，{SECRET} [资料1]。" if SECRET in prompt else "年假按工龄计算 [资料1]。"

    def stream(self, prompt):
        return iter([self._reply(prompt)])


def _with_repeating_llm(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "llm", llm=_Repeating())
    assert a.ingest_bytes(BONUS_POLICY, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    first = a.ask(QUESTION, user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in first.answer
    return a


def test_a_rating_of_a_turn_whose_prompt_held_an_earlier_managers_answer_is_not_shown_to_hr(tmp_path):
    """The earlier turns are in the prompt and a model may repeat them; the rated turn's own clauses were the
    samples' (for everyone), so HR read the managers' text in 反馈审阅 (helper-31 A3)."""
    a = _with_repeating_llm(tmp_path)
    second = a.ask("年假有几天？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in second.answer and all("管理层" not in s.source for s in second.sources)
    a.record_feedback(second, -1, actor=MANAGER, reason="答非所问")
    assert len(a.feedback_reviews(actor=ADMIN)) == 1
    assert a.feedback_reviews(actor=HR) == []
    assert SECRET.encode() not in a.export_insights("feedback", "csv", actor=HR)


def test_a_models_rewrite_that_folds_in_a_managers_answer_is_not_logged_as_the_question(tmp_path):
    """The model's rewrite becomes the search question, which the gap page shows as what was asked."""
    a = _with_repeating_llm(tmp_path)
    second = a.ask("那副经理呢？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in second.search_question
    logged = str(a.insight_log.question_rows())
    assert SECRET not in logged and "那副经理呢" in logged
    assert SECRET.encode() not in a.export_insights("gaps", "csv", actor=HR)


def test_an_administrator_asking_for_an_employee_files_only_what_the_employee_may_read(assistant):
    """The turn is kept in the employee's conversation, where they read it and their follow-ups send it
    to the model: the search reads as the employee (helper-40 1); the CLI's --user does the same."""
    assistant.add_user("boss", "admin", "correct horse", actor=ADMIN)
    assistant.add_user("emp_wang", "employee", "correct horse", actor=ADMIN)
    assert SECRET in " ".join(h.chunk.text for h in assistant.search(QUESTION, actor=ADMIN).hits)
    trace = assistant.ask(QUESTION, user="emp_wang", actor=ADMIN, conversation="c-wang")
    assert SECRET not in trace.answer + " ".join(h.chunk.text for h in trace.search.hits)
    _, turns = assistant.open_conversation("c-wang", actor=EMPLOYEE)
    assert SECRET not in turns[0].answer


def test_only_an_administrator_keeps_a_turn_asked_as_nobody(assistant):
    """An empty user name let employees share one owner-less conversation (helper-40 7); it still means
    "no memories" for everyone, as the evaluations HR runs ask (helper-44 2)."""
    assistant.remember("emp_wang", "我在上海办公室工作，出差住宿标准要按上海算", actor=EMPLOYEE)
    trace = assistant.ask("出差住宿标准是多少", user="", remember=False, actor=EMPLOYEE, traffic="eval")
    assert trace.memories == []
    with pytest.raises(RagError, match="自己的对话"):
        assistant.ask("年假有几天", user="", actor=EMPLOYEE, conversation="c-anon")
    assert assistant.list_conversations("emp_wang", actor=EMPLOYEE) == []
