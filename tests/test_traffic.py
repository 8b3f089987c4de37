"""Statistics count people: eval and test questions are logged with their mark and left out of usage,
knowledge gaps and feedback unless asked for (issue 32).

The facade on the fake embedder (fast), and the 使用情况 page through AppTest on the same facade.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant_with_samples
from streamlit.testing.v1 import AppTest

from rag_core.evaluation.followups import run_followups
from rag_core.evaluation.sessions import run_session
from rag_core.insights.rows import reviewed_trace
from rag_core.types import Principal

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("emp_wang", "employee")
ABSENT = "公司有没有提供班车？"
EVAL_ROWS = [
    {"question": "出差住宿标准是多少？", "category": "literal", "expected": ["住宿"]},
    {"question": "公司有健身房吗，员工能免费用吗？", "category": "absent", "expected": []},
    {"question": "公司年会预算是多少？", "category": "absent", "expected": []},
]


@pytest.fixture()
def strict(tmp_path):
    """Every question below the (very high) answer threshold: zero hits, so every question is a gap."""
    a = fake_assistant_with_samples(tmp_path / "strict", answer_threshold=0.99)
    return a


def eval_file(tmp_path: Path) -> Path:
    path = tmp_path / "eval.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in EVAL_ROWS), encoding="utf-8")
    return path


def test_running_the_eval_leaves_usage_and_gaps_unchanged(strict, tmp_path):
    strict.ask(ABSENT, actor=EMPLOYEE)
    before = strict.usage(actor=HR)
    assert before["questions"] == 1 and before["left_out"] == 0
    strict.run_eval(eval_file(tmp_path))
    after = strict.usage(actor=HR)
    assert after["questions"] == 1, "the eval's questions were counted as people's"
    assert after["per_day"] == before["per_day"] and after["outcomes"] == before["outcomes"]
    assert after["left_out"] == len(EVAL_ROWS)
    assert [g.representative for g in strict.knowledge_gaps(actor=HR)] == [ABSENT]
    # every question is kept, with its mark; the filter shows them on request
    assert {r["traffic"] for r in strict.insight_log.question_rows(include_tests=True)} == {"person", "eval"}
    assert strict.usage(include_tests=True, actor=HR)["questions"] == 1 + len(EVAL_ROWS)
    included = {q for g in strict.knowledge_gaps(include_tests=True, actor=HR) for q in g.questions}
    assert "公司有健身房吗，员工能免费用吗？" in included


def test_follow_up_and_session_evals_are_marked_too(strict, tmp_path):
    dialogues = tmp_path / "followups.jsonl"
    dialogues.write_text(json.dumps({"id": "d1", "turns": ["出差住宿标准是多少？", "那一线城市呢？"],
                                     "standalone": "一线城市出差住宿标准是多少？", "expected": ["住宿"]},
                                    ensure_ascii=False), encoding="utf-8")
    run_followups(strict, dialogues)
    run_session(strict, {"id": "s1", "turns": [{"say": ABSENT, "kind": "absent", "refuse": True}]}, tmp_path)
    rows = strict.insight_log.question_rows(include_tests=True)
    assert len(rows) == 3 and {r["traffic"] for r in rows} == {"eval"}
    assert strict.usage(actor=HR)["questions"] == 0 and strict.knowledge_gaps(actor=HR) == []


def test_feedback_on_test_traffic_is_left_out_of_review_gaps_and_export(strict):
    trace = strict.ask(ABSENT, actor=EMPLOYEE, traffic="test")
    strict._review_feedback(trace, -1, "emp_wang", "答非所问", "", reviewed_trace(trace), traffic="test")  # record_feedback's hook
    assert strict.feedback_reviews(actor=HR) == [] and strict.knowledge_gaps(actor=HR) == []
    assert len(strict.feedback_reviews(include_tests=True, actor=HR)) == 1
    kinds = {k for g in strict.knowledge_gaps(include_tests=True, actor=HR) for k in g.kinds}
    assert kinds == {"zero_hit", "disliked"}
    assert ABSENT not in strict.export_insights("feedback", "csv", actor=HR).decode("utf-8-sig")
    assert ABSENT in strict.export_insights("feedback", "csv", include_tests=True, actor=HR).decode("utf-8-sig")
    assert ABSENT not in strict.export_insights("gaps", "csv", actor=HR).decode("utf-8-sig")


def test_an_unknown_traffic_mark_is_refused(strict):
    with pytest.raises(ValueError):
        strict.insight_log.log_question(asked_at="2026-01-01T00:00:00+00:00", user="", role="", question="x",
                                        outcome="answered", hit_count=1, cited_docs=[], nearest={}, traffic="bench")


def test_a_log_from_before_the_mark_counts_its_rows_as_people(tmp_path):
    from rag_core.insights.log import InsightLog

    path = tmp_path / "insights.sqlite3"
    with sqlite3.connect(path) as db:  # the questions table as it was before traffic was kept
        db.execute("CREATE TABLE questions (id INTEGER PRIMARY KEY AUTOINCREMENT, asked_at TEXT NOT NULL,"
                   " user_id TEXT NOT NULL, role TEXT NOT NULL, question TEXT NOT NULL, outcome TEXT NOT NULL,"
                   " hit_count INTEGER NOT NULL, cited_docs TEXT NOT NULL, nearest TEXT NOT NULL, standard_id TEXT,"
                   " model TEXT, vector BLOB)")
        db.execute("INSERT INTO questions (asked_at, user_id, role, question, outcome, hit_count, cited_docs, nearest)"
                   " VALUES ('2026-01-01T00:00:00+00:00', 'a', '', '年假几天', 'answered', 1, '[]', '{}')")
    log = InsightLog(path)
    assert [r["traffic"] for r in log.question_rows()] == ["person"]
    log.close()


def test_the_usage_page_counts_people_and_the_box_adds_the_eval(strict, tmp_path, monkeypatch):
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: strict)
    strict.ask(ABSENT, actor=EMPLOYEE)
    strict.run_eval(eval_file(tmp_path))
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/usage.py").run()
    assert not at.exception, [e.value for e in at.exception]
    captions = " ".join(c.value for c in at.caption)
    assert "保留期内共 1 个提问" in captions and f"另有 {len(EVAL_ROWS)} 个评测和检索测试的提问未计入" in captions
    at.checkbox(key="usage_tests").check().run()
    assert f"保留期内共 {1 + len(EVAL_ROWS)} 个提问" in " ".join(c.value for c in at.caption)
    at.switch_page("pages/gaps.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("健身房" in e.label for e in at.expander)
    at.checkbox(key="gaps_tests").check().run()
    assert any("健身房" in e.label for e in at.expander)


def test_the_cli_counts_people_and_includes_tests_on_request(strict, tmp_path, capsys, monkeypatch):
    from cli_support import invoke

    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: strict)
    strict.ask(ABSENT, actor=EMPLOYEE)
    strict.run_eval(eval_file(tmp_path))
    people = invoke(capsys, "--data-dir", str(tmp_path / "strict"), "usage", "--json").json()
    everyone = invoke(capsys, "--data-dir", str(tmp_path / "strict"), "usage", "--include-tests", "--json").json()
    assert people["questions"] == 1 and everyone["questions"] == 1 + len(EVAL_ROWS)
    gaps = invoke(capsys, "--data-dir", str(tmp_path / "strict"), "gaps", "--include-tests", "--json").json()
    assert "公司有健身房吗，员工能免费用吗？" in json.dumps(gaps, ensure_ascii=False)
