"""A backup deletes no directory it did not make, copies a store moved behind a symbolic link, and a restore
says a manifest nested past the parser's limit (or far too large) in one Chinese line (56).

`backup DEST` cleared an existing `DEST.partial` (someone's folder) before it started; a store that was a symbolic
link (moved to a bigger disk) was left out of the backup without a word; a `backup.json` of 200,000 `[` ended the
restore in a RecursionError traceback. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import gc
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import QueuedLLM, fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreDamaged
from rag_core.storage.backup import verify_backup

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data, llm=QueuedLLM("住宿上限每晚 600 元。"))
    assert assistant.ingest_bytes(TRAVEL.encode(), "travel.md").ok
    assert assistant.ask("一线城市住宿上限是多少？", user="", conversation="c1").hit_count
    assistant.memory.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()
    return data


def _hidden(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(".")]


def test_a_backup_leaves_an_existing_dest_partial_directory_alone(store: Path, tmp_path: Path) -> None:
    keep = tmp_path / "hr-2024.partial"
    keep.mkdir()
    (keep / "薪资核对.xlsx").write_text("irreplaceable")
    report = Assistant.backup_data_dir(store, tmp_path / "hr-2024")
    assert Path(report.path) == tmp_path / "hr-2024" and "catalog.sqlite3" in report.files
    assert (keep / "薪资核对.xlsx").read_text() == "irreplaceable"
    assert _hidden(tmp_path) == []  # its own staging directory became the backup


def test_a_refused_backup_leaves_no_staging_directory(store: Path, tmp_path: Path) -> None:
    (store / "audit.sqlite3").write_bytes(b"")  # a store no backup may leave out (review 371 #5)
    (tmp_path / "bk.partial").mkdir()
    with pytest.raises(StoreDamaged, match="audit.sqlite3"):
        Assistant.backup_data_dir(store, tmp_path / "bk")
    assert (tmp_path / "bk.partial").is_dir() and not (tmp_path / "bk").exists() and _hidden(tmp_path) == []


@pytest.mark.parametrize("manifest", ["[" * 200_000, '{"files": [' + " " * 1_100_000 + "]}"])
def test_a_nested_or_oversized_manifest_is_one_chinese_line(store: Path, tmp_path: Path, capsys, manifest: str) -> None:
    Assistant.backup_data_dir(store, tmp_path / "bk")
    (tmp_path / "bk" / "backup.json").write_text(manifest)
    with pytest.raises(StoreDamaged, match="不是本程序写的备份清单"):
        verify_backup(tmp_path / "bk")
    before = sorted(p.name for p in store.iterdir())
    result = invoke(capsys, "--data-dir", str(store), "restore", str(tmp_path / "bk"))
    assert result.exit_code == 1 and "Traceback" not in result.stderr and "RecursionError" not in result.stderr
    assert "backup.json" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in store.iterdir()) == before


def test_a_store_behind_a_symbolic_link_is_backed_up_as_the_file(store: Path, tmp_path: Path) -> None:
    disk = tmp_path / "bigdisk"
    disk.mkdir()
    for name in ("conversations.sqlite3", "audit.sqlite3"):
        shutil.move(store / name, disk / name)
        (store / name).symlink_to(disk / name)
    (disk / "uploads").mkdir()
    (store / "eval_uploads").symlink_to(disk / "uploads")  # a linked directory: not followed, but said
    report = Assistant.backup_data_dir(store, tmp_path / "bk")
    assert {"conversations.sqlite3", "audit.sqlite3"} <= set(report.files)
    assert any(n.startswith("eval_uploads") and "符号链接" in n for n in report.notices)
    for name in ("conversations.sqlite3", "audit.sqlite3"):
        assert not (tmp_path / "bk" / name).is_symlink()
    turns = sqlite3.connect(tmp_path / "bk" / "conversations.sqlite3").execute("SELECT count(*) FROM turns")
    assert turns.fetchone()[0] == 1
    assert json.loads((tmp_path / "bk" / "backup.json").read_text())["notices"] == report.notices
    restored = Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "restored")
    assert "conversations.sqlite3" in restored.files and not (tmp_path / "restored" / "conversations.sqlite3").is_symlink()
