"""`doctor` on the data dir itself: a path that is a file, and a data dir other local users may read.

A data dir path naming a regular file got seven 正常 lines and exit 0; a 0755 data dir (umask 022) let any
local user read HR-only text and everyone's memories, and doctor said nothing.
"""

from __future__ import annotations

import json
import stat

from cli_support import invoke
from fakes import fake_assistant

from rag_core.facade.access import LOCAL_ADMIN
from rag_core.facade.maintenance import MaintenanceActions


def test_doctor_on_a_data_dir_that_is_a_file_says_so_in_one_line(capsys, tmp_path):
    not_a_dir = tmp_path / "store"
    not_a_dir.write_text("oops", encoding="utf-8")
    r = invoke(capsys, "--data-dir", str(not_a_dir), "doctor")
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [r.stdout.strip()] and "有问题" in r.stdout
    assert "不是目录" in r.stdout and "--data-dir" in r.stdout
    assert not_a_dir.read_text(encoding="utf-8") == "oops"  # nothing changed


def test_doctor_warns_about_a_data_dir_others_may_read_and_says_chmod_700(capsys, tmp_path):
    store = tmp_path / "store"
    fake_assistant(store).release_data_dir()
    store.chmod(0o755)
    r = invoke(capsys, "--data-dir", str(store), "doctor", "--json")
    checks = json.loads(r.stdout)["checks"]
    exposed = [c for c in checks if c["status"] == "exposed"]
    assert r.exit_code == 1 and len(exposed) == 1
    assert exposed[0]["fix"] == f"请运行 chmod 700 {store}（应用以数据目录的所有者身份运行，不受影响）"
    assert "0755" in exposed[0]["detail"]

    store.chmod(0o700)
    checks = MaintenanceActions.doctor_data_dir(store, actor=LOCAL_ADMIN)
    assert all(c.status != "exposed" for c in checks) and all(c.ok for c in checks)


def test_a_new_data_dir_is_for_its_owner_only_and_so_is_a_restored_one(tmp_path):
    store = tmp_path / "store"
    assistant = fake_assistant(store)  # made under umask 022: was 0755, its SQLite files 0644 inside
    assert assistant.ingest_bytes("# 年假\n\n第一条 年假5天。\n".encode(), "leave.md").ok
    assert stat.S_IMODE(store.stat().st_mode) == 0o700
    assert all(c.status != "exposed" for c in assistant.doctor(actor=LOCAL_ADMIN))
    MaintenanceActions.backup_data_dir(store, tmp_path / "backup", actor=LOCAL_ADMIN)
    assistant.release_data_dir()
    MaintenanceActions.restore_data_dir(tmp_path / "backup", tmp_path / "restored", actor=LOCAL_ADMIN)
    assert stat.S_IMODE((tmp_path / "restored").stat().st_mode) == 0o700


def test_a_data_dir_with_files_is_left_as_it_is(tmp_path):
    store = tmp_path / "store"
    store.mkdir(mode=0o755)
    store.chmod(0o755)
    (store / "notes.txt").write_text("x", encoding="utf-8")
    fake_assistant(store).release_data_dir()
    assert stat.S_IMODE(store.stat().st_mode) == 0o755  # the owner chose it; doctor warns
