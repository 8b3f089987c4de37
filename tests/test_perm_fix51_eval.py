"""Review 51i, 1: `run_eval` opened any path on the server for HR (a FIFO hung it; /etc/passwd said it exists and
its first character): a logged-in person's question set is one in the data dir; the CLI still reads its FILE."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Assistant, Principal
from rag_core.errors import RagError

ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
OUTSIDE = "只能打开数据目录"


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 休假制度\n\n第一条 年假 5 天。\n".encode(), "leave.md").ok
    for p in (ADMIN, HR):
        a.add_user(p.user, p.role, "correct horse", p.audiences, actor=ADMIN)
    return a


def question_set(folder: Path) -> Path:
    path = folder / "q.jsonl"
    row = {"question": "年假几天", "category": "literal", "expected": ["年假"]}
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# -- 1. run_eval opens only the data dir's question sets for a logged-in person --------------------------
@pytest.mark.parametrize("who", [HR, ADMIN])
def test_run_eval_refuses_a_file_outside_the_data_dir_for_a_logged_in_person(a, tmp_path, who) -> None:
    with pytest.raises(RagError, match=OUTSIDE):
        a.run_eval(question_set(tmp_path), actor=who)
    for probe in ("/etc/passwd", "/etc/nonexistent.jsonl"):  # the same line whether it exists or not
        with pytest.raises(RagError, match=OUTSIDE):
            a.run_eval(probe, actor=who)


def test_run_eval_still_opens_an_upload_and_the_local_administrators_files(a, tmp_path) -> None:
    saved = a.save_eval_upload("set.jsonl", question_set(tmp_path).read_bytes(), actor=HR)
    assert len(a.run_eval(saved, actor=HR)["results"]) == 1
    assert len(a.run_eval(f"eval_uploads/{saved.name}", actor=HR)["results"]) == 1
    a.act_as_local_administrator()  # the CLI: `python -m rag_core eval FILE` reads the file it is given
    assert len(a.run_eval(question_set(tmp_path))["results"]) == 1


def test_run_eval_on_the_desktop_reads_the_file_given(tmp_path) -> None:
    desktop = fake_assistant(tmp_path / "desktop")
    assert len(desktop.run_eval(question_set(tmp_path))["results"]) == 1
