"""An eval run checks its questions before it searches any: a too-long one is named by its line, and a run
takes at most `MAX_QUESTIONS`.

A question over the 500-character limit aborted the run halfway with 问题太长 and no line number, and a 7 MB
upload loaded 100,000 questions and answered each with no way to stop. Fake embedder, real Chroma, SQLite and
jieba; the CLI runs in-process on the fake facade.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import BigramEmbedder, fake_assistant

import rag_core.cli as cli
import rag_core.evaluation.runner as runner
from rag_core.errors import RagError
from rag_core.text.inputs import MAX_QUESTION_CHARS
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


def _row(question: str) -> str:
    return json.dumps({"question": question, "category": "literal", "expected": ["5 天"]}, ensure_ascii=False)


@pytest.fixture()
def assistant(tmp_path):
    embedder = BigramEmbedder()
    a = fake_assistant(tmp_path / "store", embedder=embedder)
    assert a.ingest_bytes(POLICY.encode(), "休假.md", actor=ADMIN).ok
    embedder.queries.clear()
    a.fake_queries = embedder.queries  # type: ignore[attr-defined]
    return a


def test_a_too_long_question_is_named_by_its_line_before_anything_is_searched(assistant, tmp_path):
    questions = tmp_path / "eval.jsonl"
    too_long = "年假" * MAX_QUESTION_CHARS
    questions.write_text("\n".join([_row("年假有几天？"), "", _row(too_long)]) + "\n", encoding="utf-8")
    with pytest.raises(RagError) as refused:
        assistant.run_eval(questions, actor=ADMIN)
    assert f"{questions}:3:" in str(refused.value) and "问题太长" in str(refused.value)
    assert assistant.fake_queries == []


def test_a_run_takes_at_most_max_questions(assistant, tmp_path, monkeypatch):
    assert runner.MAX_QUESTIONS >= 1000  # a real set (tests/data/eval.jsonl) fits many times over
    monkeypatch.setattr(runner, "MAX_QUESTIONS", 3)
    questions = tmp_path / "eval.jsonl"
    questions.write_text("\n".join(_row(f"年假有几天？{n}") for n in range(4)) + "\n", encoding="utf-8")
    with pytest.raises(RagError, match="最多") as refused:
        assistant.run_eval(questions, actor=ADMIN)
    assert "4" in str(refused.value) and "3" in str(refused.value)
    assert assistant.fake_queries == []
    questions.write_text("\n".join(_row(f"年假有几天？{n}") for n in range(3)) + "\n", encoding="utf-8")
    assert len(assistant.run_eval(questions, actor=ADMIN, mode="bm25")["results"]) == 3


def test_the_cli_says_it_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    questions = tmp_path / "eval.jsonl"
    questions.write_text(_row("年假有几天？") + "\n" + _row("年" * (MAX_QUESTION_CHARS + 1)) + "\n", encoding="utf-8")
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "eval", str(questions))
    assert result.exit_code == 1 and result.stderr.startswith("错误：") and result.stderr.count("\n") == 1
    assert f"{questions}:2:" in result.stderr
