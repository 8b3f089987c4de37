"""A backup restore would refuse for lost accounts is never reported as a success (review 59, rev-maint t10).

The first account created while a backup ran (after accounts.sqlite3 was copied, before audit.sqlite3) made a
backup whose audit trail shows an account its account file lacks: `backup` said OK, `restore` refused it as a
backup whose accounts were lost. The audit trail is now copied before the accounts it vouches for, and `backup`
runs restore's account check on its copy before it calls it done.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.storage import backup as backup_mod
from rag_core.storage.backup import backup_data_dir, restore_data_dir

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
PASSWORD = "Passw0rd-long-enough!"


@pytest.fixture()
def app(tmp_path: Path):
    assistant = fake_assistant(tmp_path / "data")  # a desktop install: no account yet
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    yield assistant
    assistant.catalog.close()
    assistant.release_data_dir()


def test_first_account_made_during_a_backup_gives_a_backup_that_restores(app, tmp_path: Path, monkeypatch) -> None:
    real_copy = backup_mod._copy_file
    made: list[str] = []

    def copy_then_first_account(path: Path, out: Path, *, follow: bool = False) -> None:
        real_copy(path, out, follow=follow)
        if path.name in ("accounts.sqlite3", "audit.sqlite3") and not made:  # whichever of the two comes first
            app.add_user("hradmin", "admin", PASSWORD)
            made.append(path.name)

    monkeypatch.setattr(backup_mod, "_copy_file", copy_then_first_account)
    report = backup_data_dir(Path(app.settings.data_dir), tmp_path / "b")
    monkeypatch.undo()
    assert made == ["audit.sqlite3"]  # the audit trail is copied first
    assert "accounts.sqlite3" in report.files and "audit.sqlite3" in report.files
    restore_data_dir(tmp_path / "b", tmp_path / "elsewhere")  # not refused as lost accounts


def test_a_copy_restore_would_refuse_for_lost_accounts_is_no_backup(app, tmp_path: Path) -> None:
    app.add_user("hradmin", "admin", PASSWORD)
    data_dir = Path(app.settings.data_dir)
    con = sqlite3.connect(data_dir / "accounts.sqlite3")  # the account file lost its accounts; the audit trail not
    with con:
        con.execute("DELETE FROM users")
    con.close()
    with pytest.raises(StoreDamaged) as info:
        backup_data_dir(data_dir, tmp_path / "b")
    message = str(info.value)
    assert "accounts.sqlite3" in message and "没有生成备份" in message and "\n" not in message
    assert not (tmp_path / "b").exists() and not list(tmp_path.glob(".b.partial-*"))  # nothing left behind
