"""A restore takes the data dir's writer lock for the whole swap, and a replaced data dir is not "damaged".

A CLI restore that ran while the app uploaded replaced the files under the app's open connections:
the upload failed in English and the audit trail was called damaged (SQLITE_READONLY_DBMOVED).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreBusy
from rag_core.facade.stores import INSIGHTS_FILE
from rag_core.facade.stores import damaged_line as feature_line
from rag_core.storage.account_files import AUDIT, damaged_line

ROOT = Path(__file__).resolve().parent.parent
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
TRAVEL = "# 差旅制度\n\n第一条 一线城市住宿每晚上限 600 元。\n"
WRITING = "应用正在写入，请稍后再恢复或先停止应用"


def _moved() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("attempt to write a readonly database")
    exc.sqlite_errorcode = sqlite3.SQLITE_READONLY_DBMOVED
    return exc


def _cli_restore(source: Path, data_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    return subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(data_dir), "restore", str(source)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)


@pytest.fixture()
def app(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    a.backup(tmp_path / "backup")
    return a


def test_cli_restore_is_refused_while_the_app_holds_the_writer_lock(app, tmp_path: Path) -> None:
    data_dir = Path(app.settings.data_dir)
    with app.catalog.writer.hold():  # an upload in progress
        done = _cli_restore(tmp_path / "backup", data_dir)
    assert done.returncode != 0
    assert WRITING in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("store.before-restore-*"))  # nothing swapped
    assert app.ingest_bytes(TRAVEL.encode(), "travel.md").ok  # the app goes on writing


def test_facade_restore_is_refused_while_the_lock_is_held(app, tmp_path: Path) -> None:
    data_dir = Path(app.settings.data_dir)
    with app.catalog.writer.hold(), pytest.raises(StoreBusy, match=WRITING):
        Assistant.restore_data_dir(tmp_path / "backup", data_dir)
    assert not list(tmp_path.glob("store.before-restore-*"))
    report = Assistant.restore_data_dir(tmp_path / "backup", data_dir)  # free again: restores
    assert report.documents == 1


def test_a_replaced_data_dir_is_said_as_replaced_not_damaged() -> None:
    line = damaged_line(AUDIT, _moved())
    assert "数据目录已被替换" in line and "请重启应用" in line
    assert "已损坏" not in line and "移走" not in line
    feature = feature_line(INSIGHTS_FILE, _moved())
    assert "数据目录已被替换" in feature and "已损坏" not in feature


def test_the_app_after_a_restore_under_it_says_restart(app, tmp_path: Path, caplog) -> None:
    """A restore under a live app: the app's next audit row says restart. A running app now holds the data dir
    open (`storage/open_lock.py`) and a restore is refused while it does; this app lets go first, as one whose
    hold was lost would."""
    app.release_data_dir()
    done = _cli_restore(tmp_path / "backup", Path(app.settings.data_dir))
    assert done.returncode == 0, done.stderr
    with caplog.at_level(logging.WARNING):
        try:
            app.ingest_bytes(TRAVEL.encode(), "travel.md")
        except Exception:  # noqa: BLE001 - the upload's own failure is not what this test reads
            pass
    said = " ".join(r.getMessage() for r in caplog.records if AUDIT in r.getMessage())
    assert "数据目录已被替换" in said, said
    assert "已损坏" not in said
