"""A newline in a file name or a typed user name cannot forge a record in a one-line-per-record listing
(review 53 #2): each field of `audit`, `docs list`, `faq list` … is printed with its control characters
made visible, and `ask --user` refuses a name holding one, as `users add` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import QueuedLLM, fake_assistant

import rag_core.cli as cli
from rag_core.facade.owner_names import NAME_CONTROL_REFUSED
from rag_core.text.inputs import InputError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
FORGED = "2026-01-01T00:00:00+00:00  hr_li(admin)  document.delete  年假制度  ok  x.txt"
ANNUAL = "员工工作满一年后，每年享有五天带薪年假。\n".encode()


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    assistant = fake_assistant(tmp_path / "store", llm=QueuedLLM())
    monkeypatch.setattr(cli, "open_assistant", lambda args: assistant)

    def run(*args: str):
        return invoke(capsys, "--data-dir", str(tmp_path / "store"), *args)

    run.assistant = assistant
    return run


def test_a_newline_in_a_file_name_prints_no_line_of_its_own(run) -> None:
    report = run.assistant.ingest_bytes(ANNUAL, f"通知.txt\n{FORGED}", doc_id="tongzhi", actor=ADMIN)
    run.assistant.add_standard_answer(f"班车？\n{FORGED}", "有。", actor=ADMIN)
    for args in (("audit",), ("docs", "list"), ("faq", "list")):
        shown = run(*args)
        assert shown.exit_code == 0, shown.stderr
        assert not any(line.startswith("2026-01-01T00:00:00") for line in shown.stdout.splitlines()), (args, shown.stdout)
    if report.ok:  # the name as ingested: whatever it kept of the newline is on the record's own line
        assert "通知" in run("audit").stdout


def test_a_user_name_with_a_newline_is_refused_in_chinese(run) -> None:
    asked = run("ask", "年假几天", "--user", f"dave\n{FORGED}")
    assert asked.exit_code == 1 and NAME_CONTROL_REFUSED in asked.stderr, asked
    assert not any(line.startswith("2026-01-01T00:00:00") for line in run("audit").stdout.splitlines())
    with pytest.raises(InputError):
        run.assistant.ask("年假几天", user="dave\tx", actor=ADMIN)


def test_every_typed_person_name_is_refused_with_a_control_character(tmp_path):
    """The rule sits with the other name rules (owner_names.checked_person), so memory and export commands get it too."""
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(InputError, match="控制字符"):
        a.checked_memory_owner("dave\n2026-01-01  forged")
    with pytest.raises(InputError, match="控制字符"):
        a.list_memories("dave\tforged")
