"""Review 371: backup, restore and damaged stores.

#1 a backup opened as the data dir was rewritten, and restore then refused it as changed; #2 an interrupt between
restore's two renames left no data dir; #3 a damaged account file was said with SQLite's English; #4 restore renamed a
folder that was no data dir and called it an old one to delete; #5 a damaged question log blocked every backup;
#6 doctor printed a phone number from the thesaurus; #8 a full disk during restore was said as a permission problem.
"""

from __future__ import annotations

import errno
import gc
import json
import re
from pathlib import Path

import pytest
from fakes import fake_assistant

import rag_core.storage.backup as backup_mod
from rag_core import Settings
from rag_core.accounts.serving import check
from rag_core.errors import StoreDamaged, StoreUnavailable
from rag_core.facade.thesaurus import thesaurus_check
from rag_core.storage.account_files import damaged_line
from rag_core.storage.backup import backup_data_dir, restore_data_dir, verify_backup

LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()
ENGLISH = re.compile(r"malformed|database|not a|disk image")


def _close(a) -> None:
    if a._memory is not None:
        a.memory.close()
    a.catalog.close()
    gc.collect()


@pytest.fixture
def data(tmp_path) -> Path:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(LEAVE, "leave.md").ok
    a.remember("u1", "用户在研发部工作")
    a.ask("年假有几天？", user="u1")  # the question log exists
    _close(a)
    return tmp_path / "store"


def test_a_backup_is_refused_as_a_data_dir_and_still_restores(data, tmp_path):
    backup_data_dir(data, tmp_path / "backup")
    with pytest.raises(StoreUnavailable, match="是一份备份"):
        fake_assistant(tmp_path / "backup")
    verify_backup(tmp_path / "backup")  # unchanged: every digest still agrees
    restore_data_dir(tmp_path / "backup", tmp_path / "restored")


def test_an_interrupt_between_the_renames_puts_the_old_data_dir_back(data, tmp_path, monkeypatch):
    backup_data_dir(data, tmp_path / "backup")
    real_rename = Path.rename

    def interrupted(self, target):
        if self.name.startswith(".store.restoring-"):  # the restored copy's turn: Ctrl-C lands first
            raise KeyboardInterrupt
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", interrupted)
    with pytest.raises(KeyboardInterrupt):
        restore_data_dir(tmp_path / "backup", data)
    monkeypatch.undo()
    assert (data / "catalog.sqlite3").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup", "store"]


def test_a_damaged_account_file_is_said_in_chinese(data, tmp_path):
    line = damaged_line("accounts.sqlite3", __import__("sqlite3").DatabaseError("database disk image is malformed"))
    assert "内部结构损坏" in line and not ENGLISH.search(line)
    accounts = data / "accounts.sqlite3"
    accounts.write_bytes(b"SQLite format 3\x00" + b"\x13" * 8192)
    refusal = check("0.0.0.0", Settings(data_dir=data)) or ""
    assert refusal.startswith("拒绝启动") and not ENGLISH.search(refusal)


@pytest.mark.parametrize("kind", ["own files", "a backup"])
def test_restore_leaves_a_folder_that_is_no_data_dir_alone(data, tmp_path, kind):
    backup_data_dir(data, tmp_path / "backup")
    if kind == "own files":
        target = tmp_path / "人事资料"
        target.mkdir()
        (target / "2026年工资表.xlsx").write_bytes(b"PK")
    else:
        target = tmp_path / "backup"
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreDamaged, match="没有改动"):
        restore_data_dir(tmp_path / "backup", target)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_damaged_question_log_is_left_out_and_the_rest_backed_up(data, tmp_path):
    log = data / "insights.sqlite3"
    log.write_bytes(log.read_bytes()[: log.stat().st_size // 2])
    report = backup_data_dir(data, tmp_path / "backup")
    assert "catalog.sqlite3" in report.files and "memory.sqlite3" in report.files
    assert "insights.sqlite3" not in report.files
    assert any(n.startswith("insights.sqlite3") and "没有放进备份" in n for n in report.notices)
    restore_data_dir(tmp_path / "backup", tmp_path / "restored")
    assert [m.content for m in fake_assistant(tmp_path / "restored").list_memories("u1")] == ["用户在研发部工作"]


def test_a_damaged_catalog_still_refuses_the_backup(data, tmp_path):
    catalog = data / "catalog.sqlite3"
    catalog.write_bytes(catalog.read_bytes()[: catalog.stat().st_size // 2])
    with pytest.raises(StoreDamaged, match="没有生成备份"):
        backup_data_dir(data, tmp_path / "backup")


def test_doctor_masks_the_thesaurus_lines_it_quotes(data):
    (data / "thesaurus.tsv").write_text("13812345678\t请假\n13812345678\t休假\n张三13912345678张三张三\t年假\n"
                                        "zhangsan@corp.cn\t加班\n", encoding="utf-8")
    said = json.dumps(thesaurus_check(data).__dict__, ensure_ascii=False)
    assert not any(leak in said for leak in ("13812345678", "1391234567", "zhangsan@corp.cn")), said


def test_a_full_disk_during_restore_says_to_free_space(data, tmp_path, monkeypatch):
    backup_data_dir(data, tmp_path / "backup")

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backup_mod, "_copy_file", full)
    with pytest.raises(StoreDamaged) as info:
        restore_data_dir(tmp_path / "backup", data)
    assert "磁盘空间不足" in str(info.value) and "权限" not in str(info.value)


def test_a_backup_named_as_the_data_dir_is_refused_and_stays_restorable(data, tmp_path):
    """Review 375 #1: the refusals wrote a 'failed' audit row into the backup, whose digests then failed."""
    from rag_core import Assistant

    Assistant.backup_data_dir(data, tmp_path / "monday")
    Assistant.backup_data_dir(data, tmp_path / "tuesday")
    with pytest.raises(StoreDamaged, match="是一份备份"):
        Assistant.restore_data_dir(tmp_path / "tuesday", tmp_path / "monday")
    with pytest.raises(StoreUnavailable, match="是一份备份"):
        Assistant.backup_data_dir(tmp_path / "monday", tmp_path / "copy")
    verify_backup(tmp_path / "monday")
    assert not (tmp_path / "copy").exists()
    checks = Assistant.doctor_data_dir(tmp_path / "monday")  # review 375 #7: it said 正常 throughout
    assert checks[0].file == "backup.json" and not checks[0].ok
    verify_backup(tmp_path / "monday")


def test_a_restore_says_what_the_backup_left_out_and_keeps_the_old_dir(data, tmp_path, capsys):
    """Review 375 #4: the restore said nothing, and called the set-aside dir (its only copy) deletable."""
    from rag_core.cli import main

    log = data / "insights.sqlite3"
    log.write_bytes(log.read_bytes()[: log.stat().st_size // 2])
    backup_data_dir(data, tmp_path / "backup")
    assert main(["--data-dir", str(data), "restore", str(tmp_path / "backup")]) == 0
    said = capsys.readouterr().out
    assert "insights.sqlite3" in said and "不要删除" in said and "确认无误后可以删除" not in said
