"""Where a backup or a restore lands: a linked data dir, a mount point, a full backup disk (review 59, rev-maint).

- t6: restoring over a data dir that is a symbolic link (/var/lib/hr -> /mnt/disk2/hr) renamed the link aside and put
  a real directory in its place, on the other disk; now the link keeps pointing at the restored data.
- t17: a data dir that is a mount point (a Docker volume) cannot be renamed: restore failed with EBUSY and
  "请检查它的位置和权限"; now it says it is a mount point and what to do, nothing changed.
- t1: a full backup disk was said as a problem with catalog.sqlite3 (文件本身完好，留在原处即可), the destination
  never named; now it names the backup directory and its disk.
"""

from __future__ import annotations

import errno
import gc
import shutil
import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.storage import backup as backup_mod
from rag_core.storage.backup import backup_data_dir, restore_data_dir

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
OTHER = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销。\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A data dir with one document and its backup, built once."""
    root = tmp_path_factory.mktemp("places")
    assistant = fake_assistant(root / "data")
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.catalog.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()
    backup_data_dir(root / "data", root / "backup")
    return root


def docs(data_dir: Path) -> list[str]:
    con = sqlite3.connect(data_dir / "catalog.sqlite3")
    try:
        return [row[0] for row in con.execute("SELECT DISTINCT doc_id FROM documents WHERE status = 'current'")]
    finally:
        con.close()


def test_restore_over_a_linked_data_dir_keeps_the_link_pointing_at_the_restored_data(built: Path, tmp_path: Path):
    real = Path(shutil.copytree(built / "data", tmp_path / "disk2" / "hr"))
    con = sqlite3.connect(real / "catalog.sqlite3")  # made after the backup: the restore drops it
    with con:
        con.execute("UPDATE documents SET doc_id = 'later'")
    con.close()
    (tmp_path / "var").mkdir()
    link = tmp_path / "var" / "hr"
    link.symlink_to(real)
    report = restore_data_dir(built / "backup", link)
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert [p.name for p in (tmp_path / "var").iterdir()] == ["hr"]  # nothing staged or kept beside the link
    assert docs(link) == ["leave"]  # the restored data, through the link, on the link's disk
    assert Path(report.previous).parent == real.parent and docs(Path(report.previous)) == ["later"]


def test_restore_into_a_mount_point_says_so_and_changes_nothing(built: Path, tmp_path: Path, monkeypatch):
    data_dir = Path(shutil.copytree(built / "data", tmp_path / "data"))
    before = sorted(p.name for p in tmp_path.iterdir())
    real_ismount = backup_mod.os.path.ismount
    monkeypatch.setattr(backup_mod.os.path, "ismount", lambda p: Path(p) == data_dir or real_ismount(p))
    with pytest.raises(StoreDamaged) as info:
        restore_data_dir(built / "backup", data_dir)
    message = str(info.value)
    assert "挂载点" in message and "--data-dir" in message and "没有改动" in message and "\n" not in message
    assert sorted(p.name for p in tmp_path.iterdir()) == before and docs(data_dir) == ["leave"]


@pytest.mark.parametrize("code", [errno.EBUSY, errno.EXDEV])
def test_a_rename_the_mount_refuses_is_said_as_a_mount_point(built: Path, tmp_path: Path, monkeypatch, code: int):
    data_dir = Path(shutil.copytree(built / "data", tmp_path / "data"))

    def busy(path: Path) -> Path:  # a bind mount os.path.ismount does not see: moving it aside fails
        raise OSError(code, "Device or resource busy", str(path))

    monkeypatch.setattr(backup_mod, "aside_path", busy)
    with pytest.raises(StoreDamaged) as info:
        restore_data_dir(built / "backup", data_dir)
    assert "挂载点" in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # the staging copy removed


@pytest.mark.parametrize("failure", ["sqlite", "file"])
def test_a_full_backup_disk_names_the_destination_not_a_store(built: Path, tmp_path: Path, monkeypatch, failure):
    real_copy = backup_mod._copy_file

    def full(path: Path, out: Path, *, follow: bool = False) -> None:
        if path.name == "catalog.sqlite3" and failure == "sqlite":
            raise sqlite3.OperationalError("database or disk is full")  # the copy's write, as SQLite says it
        if path.suffix == ".bin" and failure == "file":
            raise OSError(errno.ENOSPC, "No space left on device", str(out))
        real_copy(path, out, follow=follow)

    monkeypatch.setattr(backup_mod, "_copy_file", full)
    dest = tmp_path / "b"
    with pytest.raises(StoreDamaged) as info:
        backup_data_dir(built / "data", dest)
    message = str(info.value)
    assert message.startswith(f"备份目录 {dest} 所在的磁盘空间不足") and "留在原处" not in message
    assert list(tmp_path.iterdir()) == []  # nothing left behind
