"""A backup or restore whose audit row cannot be written says why in Chinese, as the app does.

On a read-only data dir the CLI backup printed "audit row not written (local backup ok): attempt to
write a readonly database" on stderr.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

import rag_core.facade.maintenance as maintenance
from rag_core.assistant import Assistant

ROOT = Path(__file__).resolve().parent.parent
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
UNREACHABLE = "audit.sqlite3 无法读取（只读或没有权限）"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    a.release_data_dir()
    return tmp_path / "store"


class _ReadOnlyTrail:
    def __init__(self, path: Path) -> None:
        self.path = path

    def record(self, *row: object) -> None:
        exc = sqlite3.OperationalError("attempt to write a readonly database")
        exc.sqlite_errorcode = sqlite3.SQLITE_READONLY
        raise exc


def test_an_unwritable_trail_is_logged_in_chinese(store: Path, tmp_path: Path, monkeypatch, caplog) -> None:
    monkeypatch.setattr(maintenance, "AuditLog", _ReadOnlyTrail)
    with caplog.at_level(logging.WARNING):
        assert Assistant.backup_data_dir(store, tmp_path / "b").documents == 1  # the backup itself stands
    said = " ".join(r.getMessage() for r in caplog.records)
    assert UNREACHABLE in said and "请检查目录权限" in said, said
    assert "readonly" not in said


def _can_unshare() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind / /tmp 2>/dev/null || exit 1"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_unshare(), reason="no private mount namespace (unshare -m) here")
def test_cli_backup_of_a_read_only_data_dir_says_it_in_chinese(store: Path, tmp_path: Path) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    log = tmp_path / "cli.log"  # the CLI keeps the library's log records off the terminal (stop 56): in --log-file
    script = (f"mount --bind '{store}' '{store}' && mount -o remount,ro,bind '{store}' && exec {sys.executable}"
              f" -m rag_core --data-dir '{store}' --log-file '{log}' backup '{tmp_path / 'b'}'")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "readonly" not in done.stderr and "audit row" not in done.stderr, done.stderr
    kept = log.read_text(encoding="utf-8")
    assert UNREACHABLE in kept and "readonly" not in kept, kept
