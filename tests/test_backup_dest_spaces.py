"""A backup destination pasted with a space around it is the path inside the spaces: " /backups/x" copied the store,
password hashes included, into a folder named " " under the working directory (review 51d, 5)."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core import Principal

LOCAL = Principal(user="local", role="admin")


def test_a_destination_with_spaces_around_it_is_the_path_inside(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant(tmp_path / "s")
    assistant.ingest_bytes("年假制度\n\n第一条 年假五天。\n".encode(), "年假.txt", actor=LOCAL)
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    report = assistant.backup(f" {tmp_path / 'bk'}  ", actor=LOCAL)
    assert report.path == str(tmp_path / "bk"), report.path
    assert list((tmp_path / "cwd").iterdir()) == []
