"""Review 60 (rev-conv #1, #3, #4; rev-aud #1): the earlier turns a new turn's prompt holds, and a stored turn read
back by someone who may no longer read what it quoted.

1. One rule picks the turns in the prompt (`prompt_turns`): the insights log's audience tags followed another (the last
   three turns, chatter included), so chatter between a managers' answer and a follow-up left the follow-up's rating
   and its rewritten question untagged, shown to HR.
2. A turn is judged for its reader as HR's views judge a record: the audiences it showed (and those the turns in its
   prompt carried) and the audiences its documents have now must be readable; else it is reopened, exported and
   put in a new turn's prompt as its question and one plain line.
"""

from __future__ import annotations

import json

from fakes import QueuedLLM, fake_assistant_with_samples
from test_audience_leaks import ADMIN, BONUS_POLICY, HR, MANAGER, QUESTION, SECRET, _Repeating, _with_repeating_llm

from rag_core.facade.turn_access import HIDDEN_TURN
from rag_core.types import Principal

EMPLOYEE = Principal("emp_wang", "employee")


def _chatter(a):
    for said in ("好的", "谢谢", "明白了"):
        assert a.ask(said, user="mgr_zhou", actor=MANAGER, conversation="m1").answerer.startswith("寒暄")


# -- 1. chatter does not hide what the prompt held from the insights tags ------------------------------------
def test_a_rating_after_chatter_of_a_turn_whose_prompt_held_a_managers_answer_is_not_shown_to_hr(tmp_path):
    a = _with_repeating_llm(tmp_path)
    _chatter(a)
    second = a.ask("年假有几天？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in second.prompt and SECRET in second.answer  # the prompt reached back past the chatter
    a.record_feedback(second, -1, actor=MANAGER, reason="答非所问")
    assert len(a.feedback_reviews(actor=ADMIN)) == 1
    assert a.feedback_reviews(actor=HR) == []


def test_a_rewrite_after_chatter_that_folds_in_a_managers_answer_is_not_logged_as_the_question(tmp_path):
    a = _with_repeating_llm(tmp_path)
    _chatter(a)
    second = a.ask("那副经理呢？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in second.search_question
    logged = str(a.insight_log.question_rows())
    assert SECRET not in logged and "那副经理呢" in logged


# -- 2. a turn read back by someone who may no longer read what it quoted --------------------------------------
def _demoted(tmp_path):
    """A manager's conversation quoting the managers' policy, then the manager moved out of management."""
    a = fake_assistant_with_samples(tmp_path / "s", llm=_Repeating())
    assert a.ingest_bytes(BONUS_POLICY, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    a.add_user("boss", "admin", "correct horse", actor=ADMIN)
    a.add_user("mgr_zhou", "employee", "correct horse", ["managers"], actor=ADMIN)
    first = a.ask(QUESTION, user="mgr_zhou", actor=Principal("mgr_zhou", "employee", ("managers",)), conversation="m1")
    assert SECRET in first.answer
    a.set_user_role("mgr_zhou", "employee", [], actor=ADMIN)
    return a, Principal("mgr_zhou", "employee", ())


def test_a_demoted_manager_reopens_and_exports_the_old_turn_without_the_managers_clause(tmp_path):
    a, now = _demoted(tmp_path)
    conv, traces = a.open_conversation("m1", actor=now)
    [trace] = traces
    assert trace.question == QUESTION and trace.answer == HIDDEN_TURN  # the question stays: the person typed it
    assert not trace.search.hits and not trace.sources and SECRET not in trace.prompt
    assert SECRET not in json.dumps(conv.to_dict(), ensure_ascii=False)
    assert SECRET not in json.dumps(a.get_conversation("m1", actor=now).to_dict(), ensure_ascii=False)
    md = a.export_conversation_markdown("m1", actor=now)
    assert SECRET not in md and HIDDEN_TURN in md and "部门经理年终奖" in md
    history = json.dumps(a.export_history("mgr_zhou", actor=now), ensure_ascii=False)
    assert SECRET not in history and HIDDEN_TURN in history
    # an administrator (reads every audience) still sees the turn as it was
    assert SECRET in a.export_conversation_markdown("m1", actor=ADMIN)


def test_a_demoted_managers_next_turn_sends_no_managers_clause_to_the_model(tmp_path):
    a, now = _demoted(tmp_path)
    second = a.ask("年假有几天？", user="mgr_zhou", actor=now, conversation="m1")
    assert SECRET not in second.prompt and SECRET not in second.answer


def test_a_turn_asked_after_the_demotion_stays_readable(tmp_path):
    """Its prompt left the hidden turn out (kept with it): it is not hidden for having followed that turn."""
    a, now = _demoted(tmp_path)
    second = a.ask("年假有几天？", user="mgr_zhou", actor=now, conversation="m1")
    third = a.ask("病假怎么请？", user="mgr_zhou", actor=now, conversation="m1")
    _, traces = a.open_conversation("m1", actor=now)
    assert [t.answer for t in traces] == [HIDDEN_TURN, second.answer, third.answer]
    assert HIDDEN_TURN not in (second.answer, third.answer)


def test_a_turn_that_repeated_a_hidden_turn_is_hidden_with_it(tmp_path):
    """The second turn quoted only everyone's clauses, but its answer repeated the managers' answer in its prompt."""
    a, now = _demoted(tmp_path)
    a.set_user_role("mgr_zhou", "employee", ["managers"], actor=ADMIN)
    manager = Principal("mgr_zhou", "employee", ("managers",))
    second = a.ask("年假有几天？", user="mgr_zhou", actor=manager, conversation="m1")
    assert SECRET in second.answer and all("管理层" not in s.source for s in second.sources)
    a.set_user_role("mgr_zhou", "employee", [], actor=ADMIN)
    _, traces = a.open_conversation("m1", actor=now)
    assert [t.answer for t in traces] == [HIDDEN_TURN, HIDDEN_TURN]
    third = a.ask("病假怎么请？", user="mgr_zhou", actor=now, conversation="m1")
    assert SECRET not in third.prompt


def test_a_turn_quoting_a_policy_narrowed_since_is_hidden_from_the_employee(tmp_path):
    """The policy was uploaded for everyone by mistake, then again for managers only (rev-aud t1)."""
    llm = QueuedLLM()
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    policy = f"# 奖金发放办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()
    assert a.ingest_bytes(policy, "奖金发放办法.txt", audience=("all",), actor=ADMIN).ok
    llm.enqueue(f"{SECRET}。[资料1]")
    first = a.ask(QUESTION, user="emp_wang", remember=False, actor=EMPLOYEE, conversation="e1")
    assert SECRET in first.answer
    assert a.ingest_bytes(policy, "奖金发放办法.txt", audience=("managers",), actor=ADMIN).ok
    _, [trace] = a.open_conversation("e1", actor=EMPLOYEE)
    assert trace.answer == HIDDEN_TURN and not trace.search.hits
    assert SECRET not in a.export_conversation_markdown("e1", actor=EMPLOYEE)
    assert SECRET not in json.dumps(a.export_history("emp_wang", actor=EMPLOYEE), ensure_ascii=False)
    _, [seen] = a.open_conversation("e1", actor=ADMIN)
    assert SECRET in seen.answer  # an administrator reads it as it was


def test_a_turn_quoting_a_policy_deleted_since_stays_as_it_was(tmp_path):
    """What was answered then stays: deleting a document narrows nobody's reading of it."""
    llm = QueuedLLM()
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    policy = f"# 奖金发放办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()
    done = a.ingest_bytes(policy, "奖金发放办法.txt", audience=("all",), actor=ADMIN)
    llm.enqueue(f"{SECRET}。[资料1]")
    a.ask(QUESTION, user="emp_wang", remember=False, actor=EMPLOYEE, conversation="e1")
    a.delete_document(done.doc_id, actor=ADMIN)
    _, [trace] = a.open_conversation("e1", actor=EMPLOYEE)
    assert SECRET in trace.answer and trace.answer != HIDDEN_TURN


def test_the_chat_page_draws_a_hidden_turn_as_its_question_and_one_line(tmp_path, monkeypatch):
    from pathlib import Path

    from app_support import logged_in_with

    a, _ = _demoted(tmp_path)
    app = str(Path(__file__).resolve().parents[1] / "app.py")
    at = logged_in_with(a, app, "mgr_zhou", "correct horse", tmp_path, monkeypatch)
    at.query_params["c"] = "m1"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(str(getattr(e, "value", "")) for e in at.main)
    drawn = " ".join(m.markdown[i].value for m in at.chat_message for i in range(len(m.markdown)))
    assert HIDDEN_TURN in drawn and "部门经理年终奖" in drawn
    assert SECRET not in drawn and SECRET not in shown
    captions = " ".join(c.value for m in at.chat_message for c in m.caption)
    assert "这句话是关于您的信息" not in captions, captions  # a hidden turn is not a statement about the person
