"""A restore refuses while an app has the data dir open, and a write on a replaced data dir is one Chinese line.

A CLI restore while the app sat idle (no write in progress) swapped the data dir under the app's open
connections: its next upload and delete raised Chroma's English "(code: 1032) attempt to write a readonly
database", and a fact it remembered went into store.before-restore-…/ (lost from the live store).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import RagError, StoreBusy
from rag_core.storage.backup import restore_data_dir as swap_without_checks

ROOT = Path(__file__).resolve().parent.parent
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
TRAVEL = "# 差旅制度\n\n第一条 一线城市住宿每晚上限 600 元。\n"
RUNNING = "应用正在运行：请先停止应用再恢复"
REPLACED = "数据目录已被替换（例如刚从备份恢复），请重启应用"
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}


def _cli_restore(source: Path, data_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(data_dir), "restore", str(source)],
                          capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=600)


@pytest.fixture()
def app(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    a.backup(tmp_path / "backup")
    return a


def test_cli_restore_is_refused_while_an_idle_app_has_the_data_dir_open(app, tmp_path: Path) -> None:
    done = _cli_restore(tmp_path / "backup", Path(app.settings.data_dir))
    assert done.returncode == 1, done.stdout + done.stderr
    assert RUNNING in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("store.before-restore-*"))  # nothing swapped
    assert app.ingest_bytes(TRAVEL.encode(), "travel.md").ok  # the app goes on writing to the live store
    app.remember("u1", "用户在研发部工作")
    assert [m.content for m in fake_assistant(tmp_path / "store").list_memories("u1")] == ["用户在研发部工作"]


def test_cli_restore_goes_ahead_once_every_assistant_let_go(app, tmp_path: Path) -> None:
    second = fake_assistant(tmp_path / "store")  # one process, two assistants: one shared hold
    app.release_data_dir()
    assert _cli_restore(tmp_path / "backup", tmp_path / "store").returncode == 1  # the second still holds it
    second.release_data_dir()
    done = _cli_restore(tmp_path / "backup", tmp_path / "store")
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.glob("store.before-restore-*"))


def test_facade_restore_refuses_for_another_process_but_not_for_its_own_assistants(app, tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys\n"
         "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\nfcntl.flock(fd, fcntl.LOCK_SH)\n"
         "print('held', flush=True)\nsys.stdin.read()\n", str(tmp_path / "store" / ".app-open.lock")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreBusy, match=RUNNING):
            Assistant.restore_data_dir(tmp_path / "backup", tmp_path / "store")
        assert not list(tmp_path.glob("store.before-restore-*"))
    finally:
        holder.communicate("")
    # only this process's own `app` holds it now: the restore converts that hold instead of waiting on it
    assert Assistant.restore_data_dir(tmp_path / "backup", tmp_path / "store").documents == 1
    again = fake_assistant(tmp_path / "store")  # the restored dir's lock file is held again
    assert _cli_restore(tmp_path / "backup", tmp_path / "store").returncode == 1
    assert again.list_documents()


def test_a_write_on_a_replaced_data_dir_is_one_chinese_line(app, tmp_path: Path) -> None:
    """No lock stops a swap done without the facade (or where flock is missing): the write then says restart."""
    swap_without_checks(tmp_path / "backup", tmp_path / "store")
    report = app.ingest_bytes(TRAVEL.encode(), "travel.md")
    assert report.status == "refused" and REPLACED in report.error, report.error
    assert "readonly" not in report.error and "1032" not in report.error
    with pytest.raises(RagError) as info:
        app.delete_document(app.list_documents()[0].doc_id)
    assert str(info.value) == REPLACED
