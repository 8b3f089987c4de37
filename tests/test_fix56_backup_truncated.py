"""A store cut shorter than SQLite's header is damage to a backup and a restore, and no audit row hides it (56).

SQLite opens a 0–99 byte file as a healthy empty database. A backup whose accounts and audit files were cut on
their way to the backup disk restored "successfully" into a team install that opened without a login; a live
0-byte store was backed up without a word; and a CLI backup wrote its audit row into a 0-byte audit trail, so the
next start no longer said the trail had been lost. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import QueuedLLM, fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreDamaged
from rag_core.storage.backup import verify_backup
from rag_core.types import Principal

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n"
BOSS = Principal("boss", "admin")


def _store(data: Path, *, team: bool = False) -> Path:
    assistant = fake_assistant(data, llm=QueuedLLM("住宿上限每晚 600 元。"))
    assert assistant.ingest_bytes(TRAVEL.encode(), "travel.md").ok
    assistant.remember("u1", "用户在研发部工作")
    assert assistant.ask("一线城市住宿上限是多少？", user="", conversation="c1").hit_count
    if team:
        assistant.add_user("boss", "admin", "Passw0rd!Passw0rd")
    assistant.memory.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()
    for side in data.glob("*.sqlite3-*"):
        side.unlink()
    return data


def _cut(path: Path, size: int = 0) -> None:
    path.write_bytes(path.read_bytes()[:size])


@pytest.fixture()
def team(tmp_path: Path) -> Path:
    return _store(tmp_path / "store", team=True)


def test_restore_refuses_a_backup_whose_account_and_audit_files_were_cut(team: Path, tmp_path: Path) -> None:
    Assistant.backup_data_dir(team, tmp_path / "bk", actor=BOSS)
    for name in ("accounts.sqlite3", "audit.sqlite3"):
        _cut(tmp_path / "bk" / name)
    with pytest.raises(StoreDamaged) as refused:
        Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "newserver")
    assert "accounts.sqlite3" in str(refused.value) and "0 字节" in str(refused.value)
    assert "请换一份备份" in str(refused.value)
    assert not (tmp_path / "newserver").exists()  # nothing restored: no install without a login


@pytest.mark.parametrize(("name", "size"), [("conversations.sqlite3", 0), ("audit.sqlite3", 0),
                                            ("standard_answers.sqlite3", 50), ("embedding_cache.sqlite3", 1)])
def test_verify_backup_names_a_store_cut_shorter_than_the_header(team: Path, tmp_path: Path, name: str,
                                                                 size: int) -> None:
    Assistant.backup_data_dir(team, tmp_path / "bk", actor=BOSS)
    _cut(tmp_path / "bk" / name, size)
    with pytest.raises(StoreDamaged) as refused:
        verify_backup(tmp_path / "bk")
    assert name in str(refused.value)
    assert ("0 字节" if not size else f"只有 {size} 字节") in str(refused.value)


def test_a_backup_of_a_live_cut_store_leaves_it_out_naming_it(tmp_path: Path, capsys) -> None:
    """Review 371 #5: the rest is backed up; a cut audit trail still refuses (`test_fix69_backup_review`)."""
    data = _store(tmp_path / "store")
    _cut(data / "conversations.sqlite3")
    result = invoke(capsys, "--data-dir", str(data), "backup", str(tmp_path / "bk"))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "conversations.sqlite3" in result.stdout and "0 字节" in result.stdout
    assert not (tmp_path / "bk" / "conversations.sqlite3").exists() and (tmp_path / "bk" / "catalog.sqlite3").exists()
    assert (data / "conversations.sqlite3").stat().st_size == 0  # the evidence left for the start to set aside


def test_a_live_cut_cache_is_left_out_with_a_notice(tmp_path: Path) -> None:
    data = _store(tmp_path / "store")
    _cut(data / "embedding_cache.sqlite3")
    report = Assistant.backup_data_dir(data, tmp_path / "bk")
    assert "embedding_cache.sqlite3" not in report.files
    assert any(n.startswith("embedding_cache.sqlite3") and "0 字节" in n for n in report.notices)
    assert not (tmp_path / "bk" / "embedding_cache.sqlite3").exists()
    verify_backup(tmp_path / "bk")


@pytest.mark.parametrize("damage", ["cut", "garbled"])
def test_a_backup_never_writes_its_row_into_a_cut_or_damaged_audit_trail(tmp_path: Path, capsys, damage: str) -> None:
    data = _store(tmp_path / "store")
    audit = data / "audit.sqlite3"
    if damage == "cut":
        _cut(audit)
    else:
        audit.write_bytes(audit.read_bytes()[:100] + b"\xff" * (audit.stat().st_size - 100))
    before = audit.read_bytes()
    result = invoke(capsys, "--data-dir", str(data), "backup", str(tmp_path / "bk"))
    assert result.exit_code == 1 and "audit.sqlite3" in result.stderr
    assert audit.read_bytes() == before  # no row, no schema: the next start still says the trail was lost
    if damage == "cut":
        again = fake_assistant(data)
        assert any(line.startswith("audit.sqlite3") and "0 字节" in line for line in again.store_notices)
        again.release_data_dir()
