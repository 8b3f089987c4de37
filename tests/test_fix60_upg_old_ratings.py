"""Ratings versions before 2026-12-01 kept only in catalog.sqlite3 (table `feedback`) are moved into the insights log
at the first start, not dropped unread (review rev-upgrade D1): copied with the question retention, then the old table
goes (secure_delete), and a store notice says how many. A crash between copy and drop copies nothing twice."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fakes import fake_assistant

from rag_core.facade.access import LOCAL_ADMIN
from rag_core.insights.audiences import UNKNOWN

OLD_TABLE = """CREATE TABLE feedback (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL,
    user_id TEXT NOT NULL, question TEXT NOT NULL, rating INTEGER NOT NULL, trace TEXT NOT NULL)"""


def _clause(chunk_id: str, text: str, audience: list[str] | None) -> dict:
    """A hit as `Hit.to_dict` kept it (flat); traces from before audiences were kept have none."""
    hit = {"chunk_id": chunk_id, "doc_id": chunk_id.split("@")[0], "version": 1, "text": text, "source": "x.md",
           "title": chunk_id.split("@")[0], "section": "第一条", "page": None, "scores": {}}
    if audience is not None:
        hit["audience"] = audience
    return hit


def _old_trace(question: str, answer: str, hits: list[dict], **extra) -> str:
    """A trace as the old code kept it (`AskTrace.to_dict()`): the asker's memories and the prompt included."""
    trace = {"query": question, "hit_count": len(hits), "hits": hits, "near_misses": [], "question": question,
             "answer": answer, "prompt": "记忆：我的手机 13812345678", "prompt_tokens": 10, "token_budget": 1800,
             "dropped_hits": 0, "answerer": "extractive", "memories": [{"content": "我住在杭州西湖区"}],
             "sources": [{"number": 1, "chunk_id": h["chunk_id"], "text": h["text"], "source": "x.md", "section": "s"}
                         for h in hits],
             **extra}
    return json.dumps(trace, ensure_ascii=False)


def _old_store(store: Path, rows: list[tuple]) -> None:
    store.mkdir(parents=True)
    con = sqlite3.connect(store / "catalog.sqlite3")
    con.execute(OLD_TABLE)
    con.executemany("INSERT INTO feedback (created_at, user_id, question, rating, trace) VALUES (?,?,?,?,?)", rows)
    con.commit()
    con.close()


def _tables(store: Path) -> list[str]:
    con = sqlite3.connect(store / "catalog.sqlite3")
    try:
        return [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    finally:
        con.close()


def _recent(days: float = 1) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")


def _rows(when: str) -> list[tuple]:
    return [
        (when, "zhang", "年假有几天？", 1,
         _old_trace("年假有几天？", "员工年休假5天 [资料1]", [_clause("年假制度@v1#0", "年休假5天", ["all"])])),
        (when, "wang", "量子计算机编程，我的手机 13812345678", -1,
         _old_trace("量子计算机编程，我的手机 13812345678", "制度里没有写这一条", [])),
        (when, "li", "经理奖金怎么算？", -1,
         _old_trace("经理奖金怎么算？", "奖金按季度 [资料1]", [_clause("奖金@v1#0", "奖金按季度", None)])),
    ]


def test_old_catalog_ratings_are_moved_into_the_insights_log(tmp_path: Path) -> None:
    store = tmp_path / "store"
    _old_store(store, _rows(_recent()))
    assistant = fake_assistant(store)
    entries = {e.user: e for e in assistant.feedback_reviews(actor=LOCAL_ADMIN)}
    assert set(entries) == {"zhang", "wang", "li"}
    assert entries["zhang"].rating == 1 and entries["zhang"].docs == ["年假制度"]
    assert entries["wang"].rating == -1 and "13812345678" not in entries["wang"].question  # masked as stored now
    assert entries["li"].audiences == [UNKNOWN]  # a clause without its audience: administrators only
    detail = assistant.feedback_detail(entries["zhang"].id, actor=LOCAL_ADMIN)
    assert "memories" not in detail.trace and "prompt" not in detail.trace  # the asker's memories stay out
    assert any("3 条" in line for line in assistant.store_notices), assistant.store_notices
    assert "feedback" not in _tables(store)  # dropped only after the copy committed
    gaps = assistant.knowledge_gaps(actor=LOCAL_ADMIN)  # a 👎 with its question is a knowledge gap again
    assert sum(g.count for g in gaps) == 2
    assistant.catalog.close()
    again = fake_assistant(store)  # nothing left to move: no second notice, no duplicates
    assert len(again.feedback_reviews(actor=LOCAL_ADMIN)) == 3
    assert not any("条评价" in line for line in again.store_notices)


def test_a_crash_between_copy_and_drop_copies_nothing_twice(tmp_path: Path) -> None:
    store, when = tmp_path / "store", _recent()
    _old_store(store, _rows(when))
    assistant = fake_assistant(store)
    assert len(assistant.feedback_reviews(actor=LOCAL_ADMIN)) == 3
    assistant.catalog.close()
    con = sqlite3.connect(store / "catalog.sqlite3")  # as if the drop never happened
    con.execute(OLD_TABLE)
    con.executemany("INSERT INTO feedback (created_at, user_id, question, rating, trace) VALUES (?,?,?,?,?)",
                    _rows(when))
    con.commit()
    con.close()
    again = fake_assistant(store)
    assert len(again.feedback_reviews(actor=LOCAL_ADMIN)) == 3
    assert "feedback" not in _tables(store)


def test_the_question_retention_decides_what_is_moved(tmp_path: Path) -> None:
    store = tmp_path / "old"
    _old_store(store, [*_rows(_recent(400))[:1], *_rows(_recent())[1:]])
    assistant = fake_assistant(store, question_retention_days=180)
    assert {e.user for e in assistant.feedback_reviews(actor=LOCAL_ADMIN, since="2000-01-01")} == {"wang", "li"}
    assert "feedback" not in _tables(store)
    off = tmp_path / "off"
    _old_store(off, _rows(_recent()))
    nothing = fake_assistant(off, question_retention_days=0)  # 不记录: nothing copied, the old table still goes
    assert nothing.feedback_reviews(actor=LOCAL_ADMIN) == []
    assert "feedback" not in _tables(off)
    nothing.catalog.close()
    assert "量子".encode() not in (off / "catalog.sqlite3").read_bytes()


def test_a_catalog_without_old_ratings_says_nothing(tmp_path: Path) -> None:
    assistant = fake_assistant(tmp_path / "new")
    assert not any("条评价" in line for line in assistant.store_notices)
