"""知识缺口 counts each asked turn once: a 👎 on an unanswered question marks it, it is no second question.

The questions table keeps the unanswered turn and the feedback table its 👎; both used to be counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant_with_samples
from streamlit.testing.v1 import AppTest
from test_pages_forms import open_page

from rag_core.types import Principal

HR = Principal("hr_li", "hr")
ADMIN = Principal("boss", "admin")
EMPLOYEE = Principal("emp_wang", "employee")
OTHER = Principal("emp_zhao", "employee")
ABSENT = "公司有没有提供班车？"


@pytest.fixture()
def strict(tmp_path: Path):
    """Every question below the answer threshold: each one asked is a gap."""
    a = fake_assistant_with_samples(tmp_path / "store", answer_threshold=0.99)
    return a


def test_a_disliked_unanswered_question_counts_once_with_the_dislike_as_a_mark(strict):
    trace = strict.ask(ABSENT, actor=EMPLOYEE)
    strict.record_feedback(trace, -1, actor=EMPLOYEE)
    strict.record_feedback(trace, -1, actor=EMPLOYEE, reason="答非所问")  # its reason, given after: the same 👎
    [group] = strict.knowledge_gaps(actor=HR)
    assert (group.count, group.kinds) == (1, {"zero_hit": 1, "disliked": 1})
    [named] = strict.knowledge_gaps(actor=ADMIN)
    assert (named.count, named.users) == (1, ["emp_wang"])
    assert len(strict.feedback_reviews(actor=HR)) == 1  # the review list keeps the rating


def test_each_turn_counts_once_whoever_asked_and_whichever_turn_was_rated(strict):
    first = strict.ask(ABSENT, actor=EMPLOYEE, conversation="c1")
    strict.ask(ABSENT, actor=EMPLOYEE, conversation="c1")  # asked again, not rated
    strict.ask(ABSENT, actor=OTHER)
    strict.record_feedback(first, -1, actor=EMPLOYEE)
    [group] = strict.knowledge_gaps(actor=HR)
    assert (group.count, group.kinds) == (3, {"zero_hit": 3, "disliked": 1})


def test_a_turn_asked_without_a_name_and_rated_by_its_asker_counts_once(strict):
    trace = strict.ask(ABSENT, user="", remember=False, actor=EMPLOYEE)
    strict.record_feedback(trace, -1, actor=EMPLOYEE)
    [group] = strict.knowledge_gaps(actor=HR)
    assert (group.count, group.kinds) == (1, {"zero_hit": 1, "disliked": 1})


def test_a_dislike_of_an_answered_question_is_still_a_gap_of_its_own(tmp_path: Path):
    a = fake_assistant_with_samples(tmp_path / "store")
    trace = a.ask("出差住宿标准是多少？", actor=EMPLOYEE)
    a.record_feedback(trace, -1, actor=EMPLOYEE)
    [group] = a.knowledge_gaps(actor=HR)
    assert (group.count, group.kinds) == (1, {"disliked": 1})


def test_the_gaps_page_counts_the_questions_asked(strict, tmp_path, monkeypatch):
    trace = strict.ask(ABSENT, actor=EMPLOYEE)
    strict.record_feedback(trace, -1, actor=EMPLOYEE)
    strict.ask("公司有没有提供班车", actor=OTHER)
    at: AppTest = open_page(strict, tmp_path, monkeypatch, "pages/gaps.py")
    assert not at.exception, [e.value for e in at.exception]
    assert any("共 **1** 组、**2** 次提问" in m.value for m in at.markdown)
    assert [e.label for e in at.expander][0].startswith("2 次 · ")
    assert any("没有命中 2，👎 1" in c.value for c in at.caption)


def test_a_store_from_before_turns_were_kept_opens_and_still_counts_a_rated_turn_once(tmp_path: Path):
    import sqlite3

    from rag_core.insights.log import SCHEMA, InsightLog

    path = tmp_path / "insights.sqlite3"
    old = (SCHEMA.replace("    conversation TEXT,", "").replace("    turn INTEGER\n", "")
           .replace("DEFAULT 'person',  -- person", "DEFAULT 'person'  -- person"))  # the questions table before fix51
    with sqlite3.connect(path) as db:
        db.executescript(old)
        assert "turn" not in {r[1] for r in db.execute("PRAGMA table_info(questions)")}
    log = InsightLog(path)
    vector = [1.0, 0.0]
    log.log_question(asked_at="2026-01-01T09:00:00+00:00", user="wang", role="employee", question=ABSENT,
                     outcome="zero_hit", hit_count=0, cited_docs=[], nearest={}, model="m", vector=vector,
                     conversation="c9", turn=1)
    log.add_feedback(created_at="2026-01-01T09:01:00+00:00", user="wang", question=ABSENT, answer="", rating=-1,
                     reason="", comment="", docs=[], trace={"conversation": "c9", "turn": 1}, nearest={}, model="m",
                     vector=vector)
    items, _ = log.gap_items("m")
    assert [i.kind for i in items] == ["zero_hit+disliked"]
