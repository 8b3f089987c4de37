"""Backup and restore under damage, hostile backups and team mode (review rvL).

A backup keeps private files private (the account file holds password hashes and
the session secret), refuses in one Chinese line what restore would refuse (and
leaves no half-written directory), leaves out a damaged cache the app rebuilds
anyway, and restore refuses a backup whose manifest or files could reach outside
it. Maintenance in team mode needs a logged-in administrator (the CLI acts as the
local one) and leaves an audit row. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import gc
import json
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import QueuedLLM, fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import PermissionDenied, StoreDamaged
from rag_core.types import Principal

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"
BOSS = Principal("boss", "admin")
PASSWORD = "Passw0rd!Passw0rd"


def _fill(data: Path, *, team: bool = False):
    assistant = fake_assistant(data, llm=QueuedLLM("住宿上限每晚 600 元。"))
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        assert assistant.ingest_bytes(text.encode(), name).ok
    assistant.remember("u1", "用户在研发部工作")
    assert assistant.ask("一线城市住宿上限是多少？", user="", conversation="c1").hit_count
    if team:
        assistant.add_user("boss", "admin", PASSWORD)
    return assistant


def _closed(assistant) -> Path:
    data = Path(assistant.settings.data_dir)
    assistant.memory.close()
    del assistant
    gc.collect()
    for side in data.glob("*.sqlite3-*"):  # -wal / -shm of stores a test then damages
        side.unlink()
    return data


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    """A closed data dir: two documents, a memory, a conversation."""
    return _closed(_fill(tmp_path / "store"))


def garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096
    path.write_bytes(bytes(data))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ---------------------------------------------------------------- 1. private files stay private


def test_backup_and_restore_keep_the_account_file_private(tmp_path: Path) -> None:
    data = _closed(_fill(tmp_path / "store", team=True))
    assert mode(data / "accounts.sqlite3") == 0o600
    Assistant.backup_data_dir(data, tmp_path / "bk", actor=BOSS)
    assert mode(tmp_path / "bk") == 0o700
    assert mode(tmp_path / "bk" / "accounts.sqlite3") == 0o600
    Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "restored", actor=BOSS)
    assert mode(tmp_path / "restored" / "accounts.sqlite3") == 0o600
    assert mode(tmp_path / "restored") & 0o077 == 0  # not readable by others while it was being filled either


# ---------------------------------------------------------------- 2. a damaged store: one line, nothing left behind


def test_backup_of_a_truncated_store_is_one_line_naming_it(store: Path, tmp_path: Path, capsys) -> None:
    """A feature store the app runs without is left out with that line, the rest backed up (review 371 #5)."""
    path = store / "conversations.sqlite3"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    result = invoke(capsys, "--data-dir", str(store), "backup", str(tmp_path / "bk"))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "conversations.sqlite3" in result.stdout and "没有放进备份" in result.stdout
    assert not (tmp_path / "bk.partial").exists() and not (tmp_path / "bk" / "conversations.sqlite3").exists()


# ---------------------------------------------------------------- 3. never a backup restore refuses


def test_backup_refuses_what_restore_would_refuse(store: Path, tmp_path: Path, capsys) -> None:
    garble(store / "catalog.sqlite3")
    result = invoke(capsys, "--data-dir", str(store), "backup", str(tmp_path / "bk"))
    assert result.exit_code == 1 and "已备份" not in result.stdout
    assert "catalog.sqlite3" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "bk.partial").exists() and not (tmp_path / "bk").exists()


@pytest.mark.parametrize("name", ["embedding_cache.sqlite3", "sentences.sqlite3", "chroma/chroma.sqlite3"])
def test_a_damaged_cache_is_left_out_with_a_notice(store: Path, tmp_path: Path, capsys, name: str) -> None:
    garble(store / name)
    result = invoke(capsys, "--data-dir", str(store), "backup", str(tmp_path / "bk"), "--json")
    report = result.json()
    assert report["documents"] == 2 and report["memories"] == 1
    assert name not in report["files"] and any(name in line for line in report["notices"])
    if name.startswith("chroma/"):  # the vector store is one cache: left out whole
        assert not [f for f in report["files"] if f.startswith("chroma/")]
    restored = Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "restored")
    assert restored.documents == 2
    assert fake_assistant(tmp_path / "restored").search("年假有几天").hits  # the cache is rebuilt
    shown = invoke(capsys, "--data-dir", str(store), "backup", str(tmp_path / "bk2"))
    assert shown.exit_code == 0 and name in shown.stdout  # the plain report says it too


# ---------------------------------------------------------------- 4. restore refuses hostile or broken backups


@pytest.fixture()
def backup(store: Path, tmp_path: Path) -> Path:
    Assistant.backup_data_dir(store, tmp_path / "bk")
    return tmp_path / "bk"


def _manifest(backup: Path, change) -> None:
    path = backup / "backup.json"
    path.write_text(json.dumps(change(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8")


@pytest.mark.parametrize(
    "change",
    [lambda m: [], lambda m: [None], lambda m: m | {"files": "catalog.sqlite3"}, lambda m: m | {"files": [None]},
     lambda m: m | {"documents": "2"}],
    ids=["list", "list-of-null", "files-a-string", "file-null", "count-a-string"],
)
def test_restore_refuses_a_manifest_of_the_wrong_shape(backup: Path, tmp_path: Path, change) -> None:
    _manifest(backup, change)
    with pytest.raises(StoreDamaged, match="backup.json"):
        Assistant.restore_data_dir(backup, tmp_path / "restored")
    assert not (tmp_path / "restored").exists()


@pytest.mark.parametrize("entry", ["../../../../etc/passwd", "/etc/passwd", "chroma/../../store/catalog.sqlite3"])
def test_restore_refuses_a_path_outside_the_backup(backup: Path, tmp_path: Path, entry: str) -> None:
    _manifest(backup, lambda m: m | {"files": [*m["files"], entry]})
    with pytest.raises(StoreDamaged, match="备份之外"):
        Assistant.restore_data_dir(backup, tmp_path / "restored")
    assert not (tmp_path / "restored").exists()


def test_restore_refuses_a_symlinked_file(backup: Path, tmp_path: Path) -> None:
    catalog = backup / "catalog.sqlite3"
    elsewhere = tmp_path / "elsewhere.sqlite3"
    elsewhere.write_bytes(catalog.read_bytes())
    catalog.unlink()
    catalog.symlink_to(elsewhere)
    with pytest.raises(StoreDamaged, match="符号链接"):
        Assistant.restore_data_dir(backup, tmp_path / "restored")
    assert not (tmp_path / "restored").exists()


def test_restore_refuses_a_symlinked_directory(backup: Path, tmp_path: Path) -> None:
    (backup / "chroma").rename(tmp_path / "chroma-elsewhere")
    (backup / "chroma").symlink_to(tmp_path / "chroma-elsewhere")
    with pytest.raises(StoreDamaged, match="符号链接"):
        Assistant.restore_data_dir(backup, tmp_path / "restored")


def test_two_restores_in_the_same_second_keep_both_previous_dirs(backup: Path, tmp_path: Path, monkeypatch) -> None:
    import rag_core.storage.backup as module

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2024, 5, 1, 9, 30, 0, tzinfo=UTC)

    monkeypatch.setattr(module, "datetime", Frozen)
    target = tmp_path / "restored"
    first = Assistant.restore_data_dir(backup, target)
    second = Assistant.restore_data_dir(backup, target)
    third = Assistant.restore_data_dir(backup, target)
    assert first.previous == "" and second.previous and third.previous and second.previous != third.previous
    assert third.documents == 2
    assert not [p.name for p in tmp_path.iterdir() if "restoring" in p.name]


def test_restore_onto_a_file_is_one_chinese_line(backup: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "afile").write_text("not a directory")
    with pytest.raises(StoreDamaged, match="不是目录"):
        Assistant.restore_data_dir(backup, tmp_path / "afile")
    result = invoke(capsys, "--data-dir", str(tmp_path / "afile"), "restore", str(backup))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert (tmp_path / "afile").read_text() == "not a directory"
    assert not [p.name for p in tmp_path.iterdir() if "restoring" in p.name]


# ---------------------------------------------------------------- 5. who may, and the audit trail


@pytest.fixture()
def team(tmp_path: Path):
    assistant = _fill(tmp_path / "store", team=True)
    assistant.add_user("emp", "employee", PASSWORD, actor=BOSS)
    return assistant


def _rows(assistant, action: str) -> list:
    return [e for e in assistant.audit_entries(actor=BOSS) if e.action == action]


def test_maintenance_in_team_mode_needs_a_logged_in_administrator(team, tmp_path: Path) -> None:
    data = Path(team.settings.data_dir)
    with pytest.raises(PermissionDenied, match="请先登录"):
        team.backup_data_dir(data, tmp_path / "b1")
    with pytest.raises(PermissionDenied, match="请先登录"):
        Assistant.restore_data_dir(tmp_path / "nowhere", data)
    with pytest.raises(PermissionDenied, match="请先登录"):
        Assistant.doctor_data_dir(data)
    with pytest.raises(PermissionDenied):
        team.backup_data_dir(data, tmp_path / "b2", actor=Principal("emp", "employee"))
    assert not (tmp_path / "b1").exists() and not (tmp_path / "b2").exists()
    assert len(_rows(team, "refused")) >= 4
    assert Assistant.doctor_data_dir(data, actor=BOSS)


def test_backup_and_restore_are_audited(team, tmp_path: Path, capsys) -> None:
    data = Path(team.settings.data_dir)
    team.backup(tmp_path / "b1", actor=BOSS)
    team.backup_data_dir(data, tmp_path / "b2", actor=BOSS)
    rows = _rows(team, "backup")
    assert [(r.actor, r.outcome) for r in rows] == [("boss", "ok"), ("boss", "ok")]
    assert invoke(capsys, "--data-dir", str(data), "backup", str(tmp_path / "b3")).exit_code == 0  # the CLI: local admin
    assert [r.actor for r in _rows(team, "backup")].count("local") == 1
    Assistant.restore_data_dir(tmp_path / "b1", tmp_path / "restored", actor=BOSS)
    restored = fake_assistant(tmp_path / "restored")
    assert [(r.actor, r.outcome) for r in _rows(restored, "restore")] == [("boss", "ok")]
    assert invoke(capsys, "--data-dir", str(tmp_path / "restored"), "restore", str(tmp_path / "b2")).exit_code == 0
    assert [r.actor for r in _rows(fake_assistant(tmp_path / "restored"), "restore")] == ["local"]
