"""A raw U+2028/U+2029/U+0085 inside a JSON string (json.dumps(ensure_ascii=False) writes them so) is valid JSONL;
str.splitlines broke the row there and the set was refused as 引号没有成对 (review 51).

Fake embedder, real Chroma, SQLite and jieba; each test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.evaluation.metrics import QuestionSetError, load_questions
from rag_core.evaluation.sessions import load_sessions

BREAKS = "\u2028\u2029\u0085"


def _jsonl(*rows: object) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def test_a_raw_line_separator_inside_a_question_stays_one_row_and_line_numbers_hold(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    row = {"question": f"年假几天？{BREAKS}（从网页复制）", "category": "literal", "expected": ["年假"]}
    path.write_text(_jsonl(row, row) + "\r\n", encoding="utf-8")
    rows = load_questions(path)
    assert [r["question"] for r in rows] == [row["question"]] * 2
    path.write_text(_jsonl(row) + "\n" + '{"question": "病假\n', encoding="utf-8")  # the broken row is line 3
    with pytest.raises(QuestionSetError, match=r":3: 不是合法的 JSON（第 3 行"):
        load_questions(path)


def test_a_raw_line_separator_inside_a_session_stays_one_session(tmp_path: Path) -> None:
    path = tmp_path / "sessions.jsonl"
    session = {"id": "s1", "corpus": "default", "turns": [{"say": f"年假几天？{BREAKS}", "kind": "new_topic"}]}
    path.write_text(_jsonl(session) + '{"id": \n', encoding="utf-8")
    with pytest.raises(ValueError, match=r":2: 不是合法的 JSON"):
        load_sessions(path)
    path.write_text(_jsonl(session), encoding="utf-8")
    assert [s["turns"][0]["say"] for s in load_sessions(path)] == [session["turns"][0]["say"]]


def test_an_upload_with_raw_line_separators_is_saved_one_row_a_line_and_runs(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "store")
    rows = [{"question": f"年假几天？{BREAKS}", "category": "literal", "expected": ["年假"]},
            {"question": "病假要什么证明？", "category": "literal", "expected": ["病假"]}]
    saved = a.save_eval_upload("set.jsonl", _jsonl(*rows).encode())
    assert len(saved.read_text(encoding="utf-8").splitlines()) == 2  # any line-based tool sees two rows
    report = a.run_eval(saved)
    assert [r["question"][:4] for r in report["results"]] == ["年假几天", "病假要什"]  # checked as chat checks it
