"""backup → delete the data dir → restore → the same documents, search results and memories.

Backups use SQLite's online backup API, so they are taken while the assistant is
open and writing; restore verifies the backup first and keeps the replaced data
dir beside it. The round trip runs on the fake embedder (fast) and once with the
real e5 model over the sample store (`integration`).
"""

from __future__ import annotations

import gc
import json
import shutil
import threading
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreDamaged

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"
QUESTIONS = ("一线城市住宿上限是多少？", "年假有几天？", "病假要什么证明？")


def snapshot(assistant) -> dict:
    """What a user sees: the library, what each question finds, each user's memories."""
    return {
        "docs": [(d.doc_id, d.version, d.chunk_count, d.title) for d in assistant.list_documents()],
        "search": {q: [(h.chunk.chunk_id, round(h.scores.fused, 6)) for h in assistant.search(q).hits] for q in QUESTIONS},
        "memories": sorted(m.content for m in assistant.list_memories("u1")),
    }


def close(assistant) -> None:
    if assistant._memory is not None:
        assistant.memory.close()
    assistant.catalog.close()
    gc.collect()


@pytest.fixture()
def store(tmp_path: Path):
    assistant = fake_assistant(tmp_path / "store")
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        assert assistant.ingest_bytes(text.encode(), name).ok
    assistant.remember("u1", "用户在研发部工作")
    assistant.remember("u1", "用户希望回答使用表格形式", kind="preference")
    return assistant


def test_round_trip_gives_the_same_library_results_and_memories(store, tmp_path: Path) -> None:
    before = snapshot(store)
    data_dir = Path(store.settings.data_dir)
    report = store.backup(tmp_path / "backup")  # taken while the assistant is open
    assert report.documents == 2 and report.memories == 2 and report.chunks == store.catalog.chunk_count()
    close(store)
    shutil.rmtree(data_dir)
    Assistant.restore_data_dir(tmp_path / "backup", data_dir)
    assert snapshot(fake_assistant(data_dir)) == before


def test_cli_backup_and_restore(store, tmp_path: Path, capsys) -> None:
    before = snapshot(store)
    data_dir = Path(store.settings.data_dir)
    backup = invoke(capsys, "--data-dir", str(data_dir), "backup", str(tmp_path / "b"), "--json")
    assert backup.exit_code == 0, backup.stderr
    assert json.loads(backup.stdout)["documents"] == 2
    close(store)
    shutil.rmtree(data_dir)
    restored = invoke(capsys, "--data-dir", str(data_dir), "restore", str(tmp_path / "b"))
    assert restored.exit_code == 0, restored.stderr
    assert snapshot(fake_assistant(data_dir)) == before


def test_restore_keeps_the_replaced_data_dir(store, tmp_path: Path) -> None:
    data_dir = Path(store.settings.data_dir)
    store.backup(tmp_path / "backup")
    store.remember("u1", "用户常驻杭州")  # after the backup: gone after restore, kept in the old dir
    close(store)
    report = Assistant.restore_data_dir(tmp_path / "backup", data_dir)
    assert report.previous and Path(report.previous).is_dir()
    assert "用户常驻杭州" not in snapshot(fake_assistant(data_dir))["memories"]


def test_backup_while_another_thread_writes_is_consistent(store, tmp_path: Path) -> None:
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            store.remember("u2", f"用户喜欢第{n}种零食")
            n += 1

    writer = threading.Thread(target=write)
    writer.start()
    try:
        report = store.backup(tmp_path / "backup")
    finally:
        stop.set()
        writer.join()
    restored = tmp_path / "restored"
    Assistant.restore_data_dir(tmp_path / "backup", restored)
    again = fake_assistant(restored)
    assert len(again.list_memories("u2")) + 2 == report.memories


def test_backup_refuses_a_non_empty_destination(store, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    with pytest.raises(StoreDamaged, match="不是空的"):
        store.backup(tmp_path / "full")


def test_backup_to_a_place_it_cannot_write_is_one_chinese_line(store, tmp_path: Path, monkeypatch) -> None:
    """`backup .` raised a ValueError (an empty name) and an unwritable place an OSError traceback (helper-36 6)."""
    (tmp_path / "locked").write_text("a file, not a directory")
    with pytest.raises(StoreDamaged, match="无法写入备份目录"):
        store.backup(tmp_path / "locked" / "backup")
    empty = tmp_path / "here"
    empty.mkdir()
    monkeypatch.chdir(empty)
    assert store.backup(Path(".")).files  # `.` is the (empty) directory it names


def test_restore_refuses_an_incomplete_or_damaged_backup(store, tmp_path: Path) -> None:
    data_dir = Path(store.settings.data_dir)
    with pytest.raises(StoreDamaged, match="backup.json"):
        Assistant.restore_data_dir(tmp_path, data_dir)
    store.backup(tmp_path / "backup")
    with open(tmp_path / "backup" / "catalog.sqlite3", "r+b") as f:
        f.truncate(4096)
    with pytest.raises(StoreDamaged, match="catalog.sqlite3"):
        Assistant.restore_data_dir(tmp_path / "backup", data_dir)
    assert snapshot(store)["docs"]  # nothing was replaced


@pytest.mark.integration
def test_round_trip_with_the_real_model(store_copy: Path, tmp_path: Path) -> None:
    from conftest import open_assistant

    assistant = open_assistant(store_copy)
    assistant.remember("u1", "用户在研发部工作")
    before = snapshot(assistant)
    assert before["docs"] and any(before["search"].values())
    assistant.backup(tmp_path / "backup")
    close(assistant)
    shutil.rmtree(store_copy)
    Assistant.restore_data_dir(tmp_path / "backup", store_copy)
    assert snapshot(open_assistant(store_copy)) == before
