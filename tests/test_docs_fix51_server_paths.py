"""A file path is read from the server's disk only for an administrator (the CLI, the desktop user).

`ingest_file` / `estimate_file` took any path for HR: HR calling the engine could publish any readable
.txt/.md/.pdf on the server (a private note, another install's export) to every employee. HR uploads
go through `ingest_bytes` (the documents page). Fake embedder, real Chroma, SQLite and jieba.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core import PermissionDenied, Principal

ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
NOTE = "服务器上的私人笔记：口令在保险柜里。\n"


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", "correct horse", actor=ADMIN)
    a.add_user("li", "hr", "correct horse", actor=ADMIN)
    return a


@pytest.fixture()
def note(tmp_path) -> Path:
    path = tmp_path / "private_note.txt"
    path.write_text(NOTE, encoding="utf-8")
    return path


def refusals(a) -> list:
    return [e for e in a.audit_entries(actor=ADMIN) if e.outcome == "refused"]


@pytest.mark.parametrize("action", ["ingest_file", "estimate_file"])
def test_hr_may_not_have_a_server_path_read(team, note, action):
    before = len(refusals(team))
    with pytest.raises(PermissionDenied, match="请在文档页上传文件"):
        getattr(team, action)(note, actor=HR)
    assert len(refusals(team)) == before + 1  # one refused row, as every refusal leaves
    assert team.list_documents(actor=ADMIN) == []


def test_hr_still_uploads_bytes(team, note):
    report = team.ingest_bytes(note.read_bytes(), "note.txt", actor=HR)
    assert report.ok and report.status == "indexed"


def test_an_administrator_and_the_desktop_user_read_a_path(team, note, tmp_path):
    assert team.estimate_file(note, actor=ADMIN).ok
    assert team.ingest_file(note, actor=ADMIN).status == "indexed"
    desktop = fake_assistant(tmp_path / "desktop")  # no account: the person at the machine administers it
    assert desktop.ingest_file(note).status == "indexed"


def test_the_cli_ingests_a_file_in_team_mode(tmp_path, note, capsys, monkeypatch):
    data = tmp_path / "cli-store"
    seeded = fake_assistant(data)
    seeded.add_user("wang", "admin", "correct horse", actor=ADMIN)  # team mode: the CLI acts as the data dir's owner
    seeded.release_data_dir()
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    result = invoke(capsys, "--data-dir", str(data), "ingest", str(note))
    assert result.exit_code == 0, result.stderr
    assert "已索引" in result.stdout
