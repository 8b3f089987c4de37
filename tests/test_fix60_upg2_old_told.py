"""Ratings moved from an old catalog keep nothing the asker told about themself (review rev-own3 #2), and a start
that moved nothing says nothing (#4).

Versions before 2026-12-01 kept no `outcome` and no `engine_tail`: a turn that told something kept what it remembered
(`acknowledged`) and its answer ended with the engine's reply (好的，我记住了：您常驻杭州…); a turn that only told had
the answerer 记住个人信息：不检索. Moved as they were, HR's review read the typed statement as the question and the
acknowledgement in the answer."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fakes import fake_assistant

from rag_core.conversations.statements import acknowledgement
from rag_core.facade.access import LOCAL_ADMIN

OLD_TABLE = """CREATE TABLE feedback (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL,
    user_id TEXT NOT NULL, question TEXT NOT NULL, rating INTEGER NOT NULL, trace TEXT NOT NULL)"""
REFUSAL = "制度里没有写这一条"


def _when(minutes: int) -> str:
    return (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")


def _trace(question: str, search_question: str, answer: str, told: list[str], answerer: str = "无命中：不调用模型"):
    _trace.turn = getattr(_trace, "turn", 0) + 1  # each its own turn (one turn's ratings are one rating)
    """A trace as the versions before 2026-12-01 kept it (`AskTrace.to_dict()` of then: no outcome, no engine_tail)."""
    return json.dumps({
        "query": search_question, "hit_count": 0, "hits": [], "near_misses": [], "question": question,
        "search_question": search_question, "answer": answer, "prompt": "", "prompt_tokens": 0, "token_budget": 1800,
        "dropped_hits": 0, "answerer": answerer, "memories": [], "sources": [], "conversation": "c1", "turn": _trace.turn,
        "acknowledged": [{"id": f"m{i}", "content": c} for i, c in enumerate(told)]}, ensure_ascii=False)


def _old_store(store: Path, rows: list[tuple]) -> None:
    store.mkdir(parents=True)
    con = sqlite3.connect(store / "catalog.sqlite3")
    con.execute(OLD_TABLE)
    con.executemany("INSERT INTO feedback (created_at, user_id, question, rating, trace) VALUES (?,?,?,?,?)", rows)
    con.commit()
    con.close()


def test_what_the_asker_told_stays_out_of_a_moved_rating(tmp_path: Path) -> None:
    asked_and_told = "我常驻杭州，出差住宿标准是多少？"
    told_nothing_kept = "我在上海办公室工作，入职三年了"
    only_told = "我常驻杭州"
    older_wording = "我在苏州工作，婚假几天？"
    rows = [
        (_when(1), "zhang", asked_and_told, -1,
         _trace(asked_and_told, "出差住宿标准是多少？", f"{REFUSAL}\n\n{acknowledgement(['用户常驻杭州'])}",
                ["用户常驻杭州"])),
        (_when(2), "zhang", told_nothing_kept, -1,
         _trace(told_nothing_kept, "入职三年了", f"{REFUSAL}\n\n{acknowledgement([])}", [])),
        (_when(3), "zhang", only_told, -1,
         _trace(only_told, "", acknowledgement(["用户常驻杭州"]), ["用户常驻杭州"], answerer="记住个人信息：不检索")),
        (_when(4), "zhang", older_wording, -1,
         _trace(older_wording, "婚假几天？", f"{REFUSAL}\n\n记下了：您在苏州工作。", ["用户在苏州工作"])),
        (_when(5), "li", "病假要什么证明？", -1, _trace("病假要什么证明？", "病假要什么证明？", "病假须提交医院证明。", [],
                                                      answerer="extractive")),
    ]
    store = tmp_path / "store"
    _old_store(store, rows)
    assistant = fake_assistant(store)
    entries = assistant.feedback_reviews(actor=LOCAL_ADMIN)
    assert len(entries) == 5
    said = json.dumps([[e.question, e.answer, assistant.feedback_detail(e.id, actor=LOCAL_ADMIN).trace]
                       for e in entries], ensure_ascii=False)
    for private in ("杭州", "上海", "苏州", "我记住了", "好的，知道了"):
        assert private not in said, (private, said)
    pairs = {(e.question, e.answer) for e in entries}
    assert ("出差住宿标准是多少？", REFUSAL) in pairs and ("入职三年了", REFUSAL) in pairs
    assert ("婚假几天？", REFUSAL) in pairs and ("", "") in pairs  # the turn that only told: nothing of it
    assert ("病假要什么证明？", "病假须提交医院证明。") in pairs  # an ordinary one as it was
    gaps = " ".join(q for g in assistant.knowledge_gaps(actor=LOCAL_ADMIN) for q in g.questions)
    assert "杭州" not in gaps and "上海" not in gaps and "出差住宿标准是多少？" in gaps


def test_nothing_moved_nothing_said(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    _old_store(empty, [])  # a data dir of the 12-01..12-05 versions: the table is there, empty
    assert not any("条评价" in line for line in fake_assistant(empty).store_notices)
    held = tmp_path / "held"
    row = (_when(1), "li", "病假要什么证明？", -1,
           _trace("病假要什么证明？", "病假要什么证明？", "病假须提交医院证明。", [], answerer="extractive"))
    _old_store(held, [row])
    first = fake_assistant(held)
    assert any("1 条评价" in line for line in first.store_notices), first.store_notices
    first.catalog.close()
    con = sqlite3.connect(held / "catalog.sqlite3")  # the second copy those versions kept beside the insights log
    con.execute(OLD_TABLE)
    con.execute("INSERT INTO feedback (created_at, user_id, question, rating, trace) VALUES (?,?,?,?,?)", row)
    con.commit()
    con.close()
    again = fake_assistant(held)
    assert not any("条评价" in line for line in again.store_notices), again.store_notices
    assert len(again.feedback_reviews(actor=LOCAL_ADMIN)) == 1
