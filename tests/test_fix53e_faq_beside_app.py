"""`faq add`, `faq delete` and `faq release` refuse to run beside an app that has the data dir open (embedded
Chroma), as `ingest` and `docs delete` do (review 53 #1): a `faq add` beside the app had exited 0 and broken
every question the app was asked afterwards."""

from __future__ import annotations

from pathlib import Path

from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
QUESTION = "公司有班车吗？"


def test_faq_writes_beside_a_running_app_are_refused_and_change_nothing(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assistant = fake_assistant(tmp_path / "store")
    kept = assistant.add_standard_answer("年假有几天？", "五天。", actor=ADMIN)
    app_running = [True]
    assistant.index_open_elsewhere = lambda: app_running[0]
    monkeypatch.setattr(cli, "open_assistant", lambda args: assistant)

    def run(*args: str):
        return invoke(capsys, "--data-dir", str(tmp_path / "store"), "faq", *args)

    for args in (("add", QUESTION, "--answer", "有。"), ("delete", kept.id), ("release", kept.id)):
        refused = run(*args)
        assert refused.exit_code == 1, (args, refused)
        assert "正在使用这个数据目录" in refused.stderr and "标准答复页" in refused.stderr, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1 and not refused.stdout
    assert [e.id for e in assistant.standard_answers(actor=ADMIN)] == [kept.id]

    app_running[0] = False  # the app stopped: the same command goes through
    assert run("add", QUESTION, "--answer", "有。").exit_code == 0
    assert len(assistant.standard_answers(actor=ADMIN)) == 2
