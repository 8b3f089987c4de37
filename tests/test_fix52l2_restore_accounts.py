"""Restore checks the accounts of what it actually restores, not of the backup directory (review 52l, defect 1).

Only the files backup.json names are copied: a team backup whose manifest left out accounts.sqlite3 and
audit.sqlite3 (both still in the directory) passed the no-accounts guard and restored a data dir with no
account, i.e. the no-login desktop mode where anyone acts as administrator. Failed before the fix.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import RagError
from rag_core.facade.access import LOCAL_ADMIN, Principal

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
DOC = "# 考勤制度\n\n第一条 员工每天工作八小时。\n".encode()
ACCOUNT_FILES = ("accounts.sqlite3", "audit.sqlite3")


def _team_with_backup(tmp_path: Path) -> tuple[Path, Path]:
    """A team data dir (one administrator, one login) and a backup of it; the app let go of the data dir."""
    data_dir, backup = tmp_path / "store", tmp_path / "bk"
    a = fake_assistant(data_dir)
    assert a.ingest_bytes(DOC, "k.md").ok
    a.add_user("boss", "admin", "password123", actor=LOCAL_ADMIN)
    a.audit_log.record("boss", "admin", "login")
    a.backup(backup, actor=Principal("boss", "admin"))
    a.release_data_dir()
    return data_dir, backup


def _drop_from_manifest(backup: Path, names: tuple[str, ...], *, delete: bool = False) -> None:
    manifest = json.loads((backup / "backup.json").read_text(encoding="utf-8"))
    manifest["files"] = [f for f in manifest["files"] if f not in names]
    (backup / "backup.json").write_text(json.dumps(manifest), encoding="utf-8")
    for name in names if delete else ():
        (backup / name).unlink()


def _untouched(tmp_path: Path, data_dir: Path) -> None:
    assert not list(tmp_path.glob("store.before-restore-*")) and not list(tmp_path.glob(".store.restoring-*"))
    a = fake_assistant(data_dir)
    assert a.team_mode and [u.name for u in a.list_users(actor=Principal("boss", "admin"))] == ["boss"]
    a.release_data_dir()


def test_cli_restore_refuses_a_manifest_that_leaves_out_the_account_files(tmp_path: Path) -> None:
    data_dir, backup = _team_with_backup(tmp_path)
    _drop_from_manifest(backup, ACCOUNT_FILES)
    done = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(data_dir), "restore", str(backup)],
                          capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "accounts.sqlite3" in done.stderr and "backup.json" in done.stderr and "请换一份备份" in done.stderr
    _untouched(tmp_path, data_dir)


@pytest.mark.parametrize("allow_no_accounts", [False, True])
def test_restore_refuses_a_backup_whose_account_file_is_lost(tmp_path: Path, allow_no_accounts: bool) -> None:
    """accounts.sqlite3 gone from the backup and its manifest, the audit trail kept: the restored dir would stop
    every page (lost accounts); it is refused before anything is swapped, whatever allow_no_accounts says."""
    data_dir, backup = _team_with_backup(tmp_path)
    _drop_from_manifest(backup, ("accounts.sqlite3",), delete=True)
    with pytest.raises(RagError, match="accounts.sqlite3.*数据目录没有改动"):
        Assistant.restore_data_dir(backup, data_dir, actor=LOCAL_ADMIN, allow_no_accounts=allow_no_accounts)
    _untouched(tmp_path, data_dir)


def test_restore_of_a_team_backup_still_goes_ahead(tmp_path: Path) -> None:
    data_dir, backup = _team_with_backup(tmp_path)
    report = Assistant.restore_data_dir(backup, data_dir, actor=LOCAL_ADMIN)
    assert set(ACCOUNT_FILES) <= set(report.files) and report.previous
    assert fake_assistant(data_dir).team_mode
