"""Account and audit files both truncated never reopen a team install without a login (review 55d #1).

The start sets a truncated store aside and a new one is made; with the audit trail truncated too, nothing was
left to say accounts had existed and the fresh empty account file decided the mode: desktop, no login, on
127.0.0.1 (a reverse proxy on the same host). The file kept aside says so now: refused until restored, or
until that file is removed on purpose. Real SQLite and Chroma in a temp dir, the fake embedder.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.errors import StoreDamaged

PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")


def _close(assistant) -> None:
    assistant.release_data_dir()
    del assistant
    gc.collect()


@pytest.fixture()
def team(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assistant.add_user("wang", "admin", PASSWORD)
    assert assistant.team_mode
    _close(assistant)
    return data


@pytest.mark.parametrize("cut", [("accounts.sqlite3", "audit.sqlite3"), ("accounts.sqlite3",), ("audit.sqlite3",)])
def test_fix55d_truncated_account_files_never_open_without_a_login(team: Path, cut: tuple[str, ...]) -> None:
    if cut == ("audit.sqlite3",):  # the accounts are gone too, deleted: only the truncated audit trail is left
        (team / "accounts.sqlite3").unlink()
    for name in cut:
        (team / name).open("wb").close()
    assistant = fake_assistant(team)
    assert any("0 字节" in line for line in assistant.store_notices)
    with pytest.raises(StoreDamaged) as refused:
        assert assistant.team_mode
    line = str(refused.value)
    assert "所有页面暂停使用" in line and "restore" in line
    if "audit.sqlite3" in cut:  # nothing else is left to tell: the line names the file kept aside
        assert "audit.sqlite3.damaged-" in line or "accounts.sqlite3.damaged-" in line
    with pytest.raises(StoreDamaged):
        assistant.list_users()  # no local administrator either, on 127.0.0.1 or anywhere
    _close(assistant)
    again = fake_assistant(team)  # the next start still knows: the file kept aside says so
    assert not any("0 字节" in line for line in again.store_notices)
    with pytest.raises(StoreDamaged):
        assert again.team_mode
    _close(again)


def test_fix55d_an_administrator_added_on_the_command_line_ends_the_refusal(team: Path) -> None:
    for name in ("accounts.sqlite3", "audit.sqlite3"):
        (team / name).open("wb").close()
    cli = fake_assistant(team)
    cli.act_as_local_administrator()  # the CLI: the data dir's owner
    cli.add_user("wang", "admin", PASSWORD)
    _close(cli)
    app = fake_assistant(team)
    assert app.team_mode and app.session_principal(app.login("wang", PASSWORD)) == ADMIN
    _close(app)


def test_fix55d_removing_the_kept_file_starts_desktop_mode_on_purpose(team: Path) -> None:
    for name in ("accounts.sqlite3", "audit.sqlite3"):
        (team / name).open("wb").close()
    _close(fake_assistant(team))
    for kept in [*team.glob("accounts.sqlite3.damaged-*"), *team.glob("audit.sqlite3.damaged-*")]:
        kept.unlink()
    assistant = fake_assistant(team)
    assert not assistant.team_mode
    _close(assistant)
