"""A question set (or a session file) of blank lines is refused in Chinese: `eval` exited 0 with a broken table
(review 51).

Fake embedder, real Chroma, SQLite and jieba; each test failed before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.evaluation.metrics import QuestionSetError, load_questions
from rag_core.evaluation.sessions import load_sessions


def test_a_question_set_of_blank_lines_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    for text in ("", "\n\n", "  \r\n"):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(QuestionSetError, match="题集里没有题目"):
            load_questions(path)


def test_a_session_file_of_blank_lines_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sessions.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="没有会话"):
        load_sessions(path)


def test_cli_eval_of_an_empty_set_fails_in_chinese(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    empty = tmp_path / "questions.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    r = invoke(capsys, "--data-dir", str(tmp_path / "store"), "eval", str(empty))
    assert r.exit_code != 0 and "题集里没有题目" in r.stderr and "| category |" not in r.stdout, r
