"""A turn is judged by the audience its policy had when last in effect, deletion included (review 61, rev-docs s4).

An employee's turn quoted an all-staff policy; HR narrowed it to managers (the turn was hidden), then deleted it: the
turn came back in full, the managers-only clause in its trace, because a deleted document added no audience and the
turn fell back to the one stored when it was answered. A policy only deleted (never narrowed) still shows the turn as
it was answered (SECURITY.md). Fake embedder and LLM, real Chroma and SQLite.
"""

from __future__ import annotations

import json

from fakes import QueuedLLM, fake_assistant

from rag_core.facade.turn_access import HIDDEN_TURN
from rag_core.insights.audiences import audiences_now
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
EMP = Principal("emp_wang", "employee")
CLAUSE = "经理可额外审批三天"
POLICY = f"# 年假制度\n\n## 第一条 年假\n\n员工每年享有五天带薪年假，{CLAUSE}。\n".encode()
NAME = "年假制度.md"


def _asked(tmp_path):
    llm = QueuedLLM()
    a = fake_assistant(tmp_path / "s", llm=llm)
    done = a.ingest_bytes(POLICY, NAME, actor=ADMIN)
    assert done.ok, done.error
    llm.enqueue(f"员工每年享有五天带薪年假，{CLAUSE}。[资料1]")
    turn = a.ask("年假有几天？", user="emp_wang", remember=False, actor=EMP, conversation="c1")
    assert CLAUSE in turn.answer
    return a, done.doc_id


def _shown(a):
    turn = a.get_conversation("c1", actor=EMP).turns[0]
    return turn.answer, json.dumps(turn.trace, ensure_ascii=False)


def test_narrowed_then_deleted_policy_keeps_the_turn_hidden(tmp_path):
    a, doc_id = _asked(tmp_path)
    assert a.ingest_bytes(POLICY, NAME, audience=["managers"], actor=ADMIN).ok
    assert _shown(a)[0] == HIDDEN_TURN
    assert a.delete_document(doc_id, actor=ADMIN) > 0
    answer, trace = _shown(a)
    assert answer == HIDDEN_TURN and CLAUSE not in trace
    assert CLAUSE not in a.export_conversation_markdown("c1", actor=EMP)
    assert audiences_now(a.catalog, [doc_id]) == [("managers",)]


def test_a_policy_only_deleted_leaves_the_turn_as_answered(tmp_path):
    a, doc_id = _asked(tmp_path)
    assert a.delete_document(doc_id, actor=ADMIN) > 0
    assert CLAUSE in _shown(a)[0]
    assert audiences_now(a.catalog, [doc_id]) == [("all",)]


def test_narrowed_widened_again_then_deleted_shows_the_turn(tmp_path):
    a, doc_id = _asked(tmp_path)
    assert a.ingest_bytes(POLICY, NAME, audience=["managers"], actor=ADMIN).ok
    assert a.ingest_bytes(POLICY, NAME, audience=["all"], actor=ADMIN).ok
    assert a.delete_document(doc_id, actor=ADMIN) > 0
    assert CLAUSE in _shown(a)[0]


def test_uploaded_again_the_live_version_decides(tmp_path):
    a, doc_id = _asked(tmp_path)
    assert a.ingest_bytes(POLICY, NAME, audience=["managers"], actor=ADMIN).ok
    assert a.delete_document(doc_id, actor=ADMIN) > 0
    assert a.ingest_bytes(POLICY, NAME, audience=["all"], actor=ADMIN).ok
    assert CLAUSE in _shown(a)[0]
