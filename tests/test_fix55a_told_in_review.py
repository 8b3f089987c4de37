"""Review 55a #1: what an employee tells about themself in a turn (a memory it stored, the acknowledgement line
after the answer, a turn that only told) never reaches HR's review of a rating — at any retention, and so nothing
of it is left there after an undo or a 被遗忘权 purge. Rows stored before this fix are cleaned when the store opens
(fake embedder, real stores)."""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant_with_samples

from rag_core import Assistant, Principal
from rag_core.insights.log import InsightLog

EMP, HR = Principal("emp_wang", "employee"), Principal("li", "hr")
TOLD_AND_ASKED = "我常驻杭州，出差住宿标准是多少？"


def _hr_sees(a: Assistant) -> str:
    """Everything HR's 反馈审阅 shows of every rating: list rows and each one's detail."""
    seen = []
    for entry in a.feedback_reviews(actor=HR):
        detail = a.feedback_detail(entry.id, actor=HR)
        seen.append(json.dumps([entry.question, entry.answer, entry.comment, detail.answer, detail.trace],
                               ensure_ascii=False))
    assert seen, "the test needs a rating HR may read"
    return "\n".join(seen)


def _rated(tmp_path: Path, question: str, **settings) -> tuple[Assistant, object]:
    a = fake_assistant_with_samples(tmp_path / "s", **settings)
    t = a.ask(question, user="emp_wang", actor=EMP, conversation="c1")
    assert t.acknowledged, "the turn must have stored a memory"
    a.record_feedback(t, -1, actor=EMP, reason="答非所问")
    return a, t


def test_at_retention_zero_nothing_told_reaches_the_review(tmp_path) -> None:
    a, _ = _rated(tmp_path, TOLD_AND_ASKED, question_retention_days=0)
    assert "杭州" not in _hr_sees(a)


def test_the_review_keeps_the_answer_as_the_policies_gave_it(tmp_path) -> None:
    a, t = _rated(tmp_path, TOLD_AND_ASKED)
    seen = _hr_sees(a)
    assert "杭州" not in seen
    assert "acknowledged" not in seen and "engine_tail" not in seen
    [entry] = a.feedback_reviews(actor=HR)
    assert entry.answer == t.answer[: -len(t.engine_tail)].rstrip()  # the policy part stays for review
    assert entry.question == "出差住宿标准是多少？"


def test_nothing_is_left_after_undo_and_purge(tmp_path) -> None:
    a, t = _rated(tmp_path, TOLD_AND_ASKED)
    a.undo_acknowledged("c1", t.turn, actor=EMP)
    a.purge_memories("emp_wang", actor=EMP)
    assert "杭州" not in _hr_sees(a)


def test_a_turn_that_only_told_keeps_neither_its_words_nor_the_acknowledgement(tmp_path) -> None:
    a, _ = _rated(tmp_path, "我怀孕了")
    assert "怀孕" not in _hr_sees(a)


def test_rows_stored_before_are_cleaned_when_the_store_opens(tmp_path) -> None:
    path = tmp_path / "insights.sqlite"
    log = InsightLog(path)
    tail = "好的，我记住了：您常驻杭州。以后回答会参考这些信息（不作为制度依据）。"
    trace = {"question": TOLD_AND_ASKED, "search_question": "出差住宿标准是多少？", "answer": f"住宿 400 元。\n\n{tail}",
             "acknowledged": [{"id": "a" * 32, "content": "用户常驻杭州"}], "engine_tail": tail, "outcome": "answered",
             "conversation": "c1", "turn": 1}
    told = {"question": "我怀孕了", "search_question": "我怀孕了", "answer": "好的，我记住了：您怀孕了。",
            "acknowledged": [{"id": "b" * 32, "content": "用户怀孕了"}], "engine_tail": "", "outcome": "acknowledged",
            "conversation": "c1", "turn": 2}
    for data, question in ((trace, "出差住宿标准是多少？"), (told, "我怀孕了")):
        log.add_feedback(created_at="2030-01-01T00:00:00+00:00", user="emp_wang", question=question,
                         answer=data["answer"], rating=-1, reason="", comment="", docs=[], trace=data, nearest={},
                         model=None, vector=None)
    log._db.execute("PRAGMA user_version = 1")  # as a store written before this fix
    log._db.commit()
    log.close()
    reopened = InsightLog(path)
    rows = [reopened.feedback_entry(e.id) for e in reopened.feedback()]
    seen = json.dumps([[r.question, r.answer, r.trace] for r in rows], ensure_ascii=False)
    assert "杭州" not in seen and "怀孕" not in seen
    assert all("acknowledged" not in r.trace and "engine_tail" not in r.trace for r in rows)
    assert sorted(r.answer for r in rows) == ["", "住宿 400 元。"]
