"""`faq list` marks a held standard answer and `faq release` serves it again; dates are the office's (review s50k
defect 2). The assistant is the fake one (`fakes.fake_assistant`): no model loads."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
EMPLOYEE = Principal("emp_wang", "employee")
BUS = "# 星河科技有限公司班车管理办法\n\n## 第三条 班车\n\n公司每天早上八点发车。\n".encode()
QUESTION = "公司有班车吗？"


@pytest.fixture()
def setup(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BUS, "bus.md", actor=ADMIN).ok
    monkeypatch.setattr(cli, "open_assistant", lambda args: a)

    def run(*args: str):
        result = invoke(capsys, "--data-dir", str(tmp_path / "store"), *args)
        assert "Traceback" not in result.stderr
        return result

    return a, run


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMPLOYEE).answerer == "标准答复"


def test_a_held_answer_is_marked_with_why_and_faq_release_serves_it_again(setup):
    a, run = setup
    entry = a.add_standard_answer(QUESTION, "有，早八点发车。", clauses=["《班车管理办法》第三条"], actor=ADMIN)
    a.delete_document(a.list_documents(actor=ADMIN)[0].doc_id, actor=ADMIN)
    listed = run("faq", "list")
    assert listed.exit_code == 0 and f"【待复核】{entry.id}" in listed.stdout
    assert "待复核：它依据的文档《星河科技有限公司班车管理办法》已于" in listed.stdout
    assert f"faq release {entry.id}" in listed.stdout
    [row] = run("faq", "list", "--json").json()["standard_answers"]
    assert row["id"] == entry.id and "待复核" in row["held"]
    released = run("faq", "release", entry.id)
    assert released.exit_code == 0 and "已恢复使用" in released.stdout, released
    assert served(a) and "待复核" not in run("faq", "list").stdout
    assert run("faq", "list", "--json").json()["standard_answers"][0]["held"] is None
    assert "无需恢复" in run("faq", "release", entry.id).stdout
    [audit] = a.audit_log.entries(action="standard.release")  # the facade's release: one row, not two
    assert audit.target == entry.id


def test_releasing_an_unknown_answer_is_refused_in_one_chinese_line(setup):
    _, run = setup
    result = run("faq", "release", "nope")
    assert result.exit_code == 1 and result.stderr.startswith("错误：") and "nope" in result.stderr


def test_the_listed_date_is_the_offices_day_not_utcs(setup, tmp_path):
    a, run = setup
    entry = a.add_standard_answer(QUESTION, "有。", actor=ADMIN)
    with sqlite3.connect(tmp_path / "store" / "standard_answers.sqlite3") as db:  # 01:30 on 2 March in Shanghai
        db.execute("UPDATE standard_answers SET created_at = ? WHERE id = ?", ("2026-03-01T17:30:00+00:00", entry.id))
    line = next(x for x in run("faq", "list").stdout.splitlines() if entry.id in x)
    assert line.endswith("2026-03-02"), line
