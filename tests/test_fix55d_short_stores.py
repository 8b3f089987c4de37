"""A store file shorter than SQLite's 100-byte header is truncated too, not a new database (review 55d #4a).

Only 0 bytes counted: SQLite reads a 1-byte file as an empty database, so a memory store cut to 1 byte was
opened as new (doctor ok, memories 0, the file rewritten). Real files, really cut.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.storage.empty_stores import kept_aside
from rag_core.storage.health import doctor

CUT = {"memory.sqlite3": 1, "conversations.sqlite3": 99, "insights.sqlite3": 17}


def _close(assistant) -> None:
    assistant.release_data_dir()
    del assistant
    gc.collect()


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assistant.remember("张三", "我在上海工作")
    assert assistant.conversations is not None and assistant.insight_log is not None  # made, with their headers
    _close(assistant)
    return data


def test_fix55d_a_store_shorter_than_the_header_is_said_and_kept_aside(store: Path) -> None:
    for name, size in CUT.items():
        with open(store / name, "r+b") as f:
            f.truncate(size)
    rows = {check.file: check for check in doctor(store)}
    for name, size in CUT.items():
        assert rows[name].status == "damaged" and f"{size} 字节" in rows[name].detail, rows[name].line()
    assistant = fake_assistant(store)
    notices = "\n".join(assistant.store_notices)
    for name, size in CUT.items():
        assert f"{name} 只有 {size} 字节" in notices and "可能被截断" in notices
        assert [p.stat().st_size for p in kept_aside(store, name)] == [size]  # kept as it was (its WAL beside it)
    _close(assistant)


def test_fix55d_a_fresh_install_and_its_second_start_say_nothing(tmp_path: Path, store: Path) -> None:
    fresh = fake_assistant(tmp_path / "fresh")
    assert not any("字节" in notice for notice in fresh.store_notices)
    _close(fresh)
    again = fake_assistant(store)  # written stores (WAL ones among them) are no truncated ones
    assert not any("字节" in notice for notice in again.store_notices)
    assert not list(store.glob("*.damaged-*"))
    assert all(check.status != "damaged" for check in doctor(store))
    _close(again)
