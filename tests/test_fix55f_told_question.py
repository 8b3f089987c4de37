"""What an employee told about themself never reaches HR as a rated or logged question, even after an earlier turn
of the conversation showed a restricted clause (review 55f, defect 1).

Each test failed before its fix (checked by running it on the unfixed code).
"""

from __future__ import annotations

from fakes import fake_assistant_with_samples

from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
MANAGER = Principal("mgr_zhou", "employee", audiences=("managers",))
TRAVEL = ("# 管理层差旅办法\n\n## 第一条 住宿\n\n部门经理出差住宿标准为每晚八百元，可入住四星级酒店。\n").encode()
TOLD_AND_ASKED = "我常驻杭州，出差住宿标准是多少？"


def _after_a_managers_turn(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    assert a.ingest_bytes(TRAVEL, "管理层差旅办法.txt", audience=("managers",), actor=ADMIN).ok
    first = a.ask("部门经理出差住宿标准是多少？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert "八百元" in first.answer
    second = a.ask(TOLD_AND_ASKED, user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert second.engine_tail and second.search_question != second.question
    return a, second


def test_a_dislike_after_a_restricted_turn_keeps_only_what_was_asked(tmp_path):
    a, second = _after_a_managers_turn(tmp_path)
    a.record_feedback(second, -1, actor=MANAGER, reason="答非所问")
    [seen] = a.feedback_reviews(actor=ADMIN, include_tests=True)
    assert "杭州" not in seen.question
    assert seen.question == "出差住宿标准是多少？"
    assert "杭州" not in "".join(q for g in a.knowledge_gaps(actor=ADMIN, include_tests=True) for q in g.questions)


def test_the_question_log_after_a_restricted_turn_keeps_only_what_was_asked(tmp_path):
    a, _ = _after_a_managers_turn(tmp_path)
    logged = [row[0] for row in a.insight_log._db.execute("SELECT question FROM questions")]
    assert logged and all("杭州" not in q for q in logged)
    assert "出差住宿标准是多少？" in logged


def test_an_older_row_that_kept_the_typed_told_question_is_cleaned_on_open(tmp_path):
    """A version before user_version 2 kept the typed question (statement and all) after a restricted turn; the
    cleanup on open took the statement out of the trace but left it in the question column HR's list shows."""
    import json

    from rag_core.insights.log import InsightLog

    path = tmp_path / "insights.sqlite"
    log = InsightLog(path)
    tail = "好的，我记住了：您常驻杭州。以后回答会参考这些信息（不作为制度依据）。"
    trace = {"question": TOLD_AND_ASKED, "search_question": "部门经理出差住宿标准是多少？",
             "answer": f"住宿 800 元。\n\n{tail}", "acknowledged": [{"id": "a" * 32, "content": "用户常驻杭州"}],
             "engine_tail": tail, "outcome": "answered", "conversation": "m1", "turn": 2}
    log.add_feedback(created_at="2030-01-01T00:00:00+00:00", user="mgr_zhou", question=TOLD_AND_ASKED,
                     answer=trace["answer"], rating=-1, reason="", comment="", docs=[], trace=trace, nearest={},
                     model="m", vector=None, audiences=[("managers",)])
    log._db.execute("PRAGMA user_version = 1")  # as a store written before the told cleanup
    log._db.commit()
    log.close()
    reopened = InsightLog(path)
    [entry] = reopened.feedback()
    full = reopened.feedback_entry(entry.id)
    assert "杭州" not in json.dumps([entry.question, full.question, full.trace], ensure_ascii=False)
