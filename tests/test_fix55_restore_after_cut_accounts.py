"""After a start set truncated account and audit files aside, the data dir still counts as one with accounts
(review 175): the refusal tells HR to restore, and restoring a backup made before any account existed must not
silently switch the login off, as it is refused over an intact team install (`--allow-no-accounts`). `doctor`
says it too."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.storage.account_files import lost_accounts, no_accounts
from rag_core.storage.backup import backup_data_dir, restore_data_dir


def _close(assistant) -> None:
    assistant.release_data_dir()
    del assistant
    gc.collect()


def test_fix55_a_backup_without_accounts_is_not_restored_over_cut_account_files(tmp_path: Path) -> None:
    data = tmp_path / "store"
    desktop = fake_assistant(data)
    backup_data_dir(data, tmp_path / "before-accounts")
    desktop.add_user("wang", "admin", "correct horse")
    _close(desktop)
    for name in ("accounts.sqlite3", "audit.sqlite3"):
        (data / name).open("wb").close()
    _close(fake_assistant(data))  # the start sets both aside
    assert not no_accounts(data) and lost_accounts(data) is not None  # doctor's row and the restore's check
    with pytest.raises(RagError, match="allow-no-accounts"):
        restore_data_dir(tmp_path / "before-accounts", data)
    restore_data_dir(tmp_path / "before-accounts", data, allow_no_accounts=True)  # said on purpose: allowed
    restored = fake_assistant(data)  # the data dir is the backup's now, the copies set aside gone with it
    assert not restored.team_mode and not list(data.glob("*.damaged-*"))
    _close(restored)
