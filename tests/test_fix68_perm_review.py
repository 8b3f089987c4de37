"""Review 367 (audience leaks through every door):

- #1 a chat turn reopened to be rated lost its clauses' audiences (each read as 全体员工): once the managers-only policy
  was published to everyone, HR's 反馈审阅, 查看完整依据, 知识缺口 and the feedback export showed its old text;
- #2 知识缺口 with 依据较弱 listed for HR a manager's question answered only from a policy HR cannot read.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant

from rag_core import Principal
from rag_core.conversations.records import search_from_dict
from rag_core.types import UNKNOWN_AUDIENCE

ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
MGR = Principal("mgr", "employee", ("managers",))
LEAVE = "# 休假制度\n\n第一条 员工年假 5 天。\n"
TRAVEL = "# 经理差旅细则\n\n第八条 经理级出差住宿每晚上限 1288 元，可报销头等舱。\n\n第九条 经理级招待费每月上限 8866 元。\n"
SECRET = ("1288", "头等舱", "8866")


def _team(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", "correct horse")
    a.add_user("li", "hr", "correct horse", actor=ADMIN)
    a.add_user("mgr", "employee", "correct horse", ["managers"], actor=ADMIN)
    assert a.ingest_bytes(LEAVE.encode(), "leave.md", actor=ADMIN).ok
    assert a.ingest_bytes(TRAVEL.encode(), "mgr_travel.md", audience=["managers"], actor=ADMIN).ok
    return a


def test_a_reopened_turn_keeps_its_clauses_audiences() -> None:
    hits = search_from_dict({"hits": [{"chunk_id": "a@v1#0", "audience": ["managers"]}, {"chunk_id": "b@v1#0"}]}).hits
    assert [h.chunk.audience for h in hits] == [("managers",), UNKNOWN_AUDIENCE]  # not recorded: never 全体员工


def test_a_managers_rating_stays_hidden_from_hr_after_the_policy_is_widened(tmp_path: Path) -> None:
    a = _team(tmp_path)
    turn = a.ask("经理出差住宿每晚上限多少", user="mgr", actor=MGR, conversation="c-mgr")
    assert [h.chunk.audience for h in turn.search.hits] == [("managers",)]
    a.record_feedback(turn, -1, actor=MGR, comment="太少")
    assert a.feedback_reviews(actor=HR) == []
    widened = "# 经理差旅细则\n\n第八条 出差住宿每晚上限 600 元。\n"
    assert a.ingest_bytes(widened.encode(), "mgr_travel.md", audience=["all"], actor=ADMIN).ok
    seen = []
    for entry in a.feedback_reviews(actor=HR):
        detail = a.feedback_detail(entry.id, actor=HR)
        seen.append(json.dumps(detail.trace, ensure_ascii=False) + detail.answer + a.feedback_trace(entry.id, actor=HR).answer)
    seen += [json.dumps(g.nearest or {}, ensure_ascii=False) for g in a.knowledge_gaps(actor=HR)]
    seen.append(a.export_insights("feedback", "csv", actor=HR).decode("utf-8-sig"))
    assert not [word for word in SECRET if any(word in text for text in seen)]
    assert a.feedback_reviews(actor=ADMIN)  # the administrator still reads it


def test_a_weak_answer_from_a_policy_hr_cannot_read_is_no_gap_for_hr(tmp_path: Path) -> None:
    a = _team(tmp_path)
    question = "经理级招待费是否含酒水"
    turn = a.ask(question, user="mgr", actor=MGR)
    assert turn.outcome == "weak" and {h.chunk.doc_id for h in turn.search.hits} == {"mgr_travel"}
    assert not [g for g in a.knowledge_gaps(actor=HR, include_weak=True) if g.kinds.get("weak")]
    assert "依据较弱" not in a.export_insights("gaps", "csv", include_weak=True, actor=HR).decode("utf-8-sig")
    assert [g for g in a.knowledge_gaps(actor=ADMIN, include_weak=True) if g.kinds.get("weak")]  # the admin's list
