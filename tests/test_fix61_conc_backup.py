"""A backup taken while an upload finishes: the catalog is copied with the writer lock held, so a restore never has
two versions in effect (stop 61's review: the backup copied the catalog between the new version going current and
the old one being retired; doctor flagged the restored copy)."""

from __future__ import annotations

import threading
import time

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreBusy
from rag_core.storage import backup_wait
from rag_core.storage.backup import backup_data_dir

OLD = "第一条 灯塔补贴每月 100 元。\n第二条 灯塔补贴随工资发放。\n".encode()
NEW = "第一条 灯塔补贴每月 200 元。\n第二条 灯塔补贴随工资发放。\n".encode()


def test_a_backup_between_the_switch_and_the_retire_waits_and_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(backup_wait, "WAIT_SECONDS", 0.5)
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes(OLD, "lighthouse.txt")
    real_retire = a.indexer._retire
    failed: list[BaseException] = []

    def retire(old):  # another session's backup (or the CLI's) lands in this window
        def run():
            try:
                a.backup(tmp_path / "bk")
            except BaseException as exc:  # noqa: BLE001 - kept for the assertion
                failed.append(exc)
        t = threading.Thread(target=run)
        t.start()
        t.join()
        return real_retire(old)

    monkeypatch.setattr(a.indexer, "_retire", retire)
    assert a.ingest_bytes(NEW, "lighthouse.txt").version == 2
    assert failed and isinstance(failed[0], StoreBusy) and "正在导入、删除或重新切分文档" in str(failed[0]) and "请稍后再备份" in str(failed[0])
    assert not (tmp_path / "bk").exists()
    monkeypatch.setattr(a.indexer, "_retire", real_retire)
    a.backup(tmp_path / "bk")  # once the upload is done
    Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "restored")
    b = fake_assistant(tmp_path / "restored")
    assert [v.status for v in b.catalog.versions("lighthouse") if v.status == "current"] == ["current"]
    assert [c for c in b.doctor() if c.status != "ok" and c.file == "catalog.sqlite3"] == []


def test_a_backup_waits_for_an_upload_to_finish_then_copies(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes(OLD, "lighthouse.txt")
    held, done, told = threading.Event(), threading.Event(), []

    def upload():  # an upload at work: it holds the catalog's writer lock a moment
        with a.catalog.writer.hold():
            held.set()
            time.sleep(0.6)
            done.set()  # its last step, still holding the lock

    t = threading.Thread(target=upload)
    t.start()
    held.wait()
    report = Assistant.backup_data_dir(tmp_path / "store", tmp_path / "bk", waiting=told.append)  # the CLI's path
    t.join()
    assert done.is_set() and told == [backup_wait.WAITING]  # copied only after the upload let go
    assert "catalog.sqlite3" in report.files and report.documents == 1


def test_a_data_dir_no_upload_ever_wrote_is_backed_up_without_waiting(tmp_path):
    a = fake_assistant(tmp_path / "store")
    (tmp_path / "store" / ".catalog.write-lock").unlink(missing_ok=True)
    del a
    report = backup_data_dir(tmp_path / "store", tmp_path / "bk", wait_seconds=0)
    assert "catalog.sqlite3" in report.files


def test_the_refusal_names_the_wait(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes(OLD, "lighthouse.txt")
    with a.catalog.writer.hold(), pytest.raises(StoreBusy, match="请稍后再备份"):
        backup_data_dir(tmp_path / "store", tmp_path / "bk", wait_seconds=0.3)
    assert not (tmp_path / "bk").exists() and not list(tmp_path.glob(".bk.partial-*"))
