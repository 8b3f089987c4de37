"""保存记忆 on a full disk: the embedding cache's failed commit no longer blocks the save, and a failed write of the
memory store itself is one Chinese line, never SQLite's English or a traceback (review 54f).

The full disk is simulated by making the failing statement raise what SQLite raises on a full disk
(SQLITE_FULL), through a connection proxy: sqlite3.Connection's methods cannot be patched.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core.errors import MemoryStoreError
from rag_core.facade.memories import memory_unreadable

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TEXT = "我在上海办公室，主要负责招聘"


def sqlite_full() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = sqlite3.SQLITE_FULL
    return exc


def sqlite_busy() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("database is locked")
    exc.sqlite_errorcode = sqlite3.SQLITE_BUSY
    return exc


class Failing:
    """A connection whose `commit()` (the embedding cache) or statement starting with `sql` (the memory store)
    raises `exc`; everything else goes to the real connection, so what it wrote before stays real."""

    def __init__(self, conn: sqlite3.Connection, exc: BaseException, *, sql: str | None = None) -> None:
        self._conn, self._exc, self._sql = conn, exc, sql

    def commit(self) -> None:
        if self._sql is None:
            raise self._exc
        self._conn.commit()

    def execute(self, sql: str, *args):
        if self._sql is not None and sql.strip().upper().startswith(self._sql):
            raise self._exc
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


@pytest.mark.parametrize("failure", [sqlite_full, sqlite_busy])
def test_a_failed_embedding_cache_commit_still_embeds_and_saves_the_memory(tmp_path, monkeypatch, failure):
    a = fake_assistant(tmp_path / "store")
    cache = a.embedder
    monkeypatch.setattr(cache, "_db", Failing(cache._db, failure()))
    vectors = cache.embed_passages(["员工每年享有五天带薪年假", "病假需提供医院证明"])
    assert vectors.shape == (2, cache.dim)
    memory_id, action = a.remember("local", TEXT)  # the cache cannot be written: the memory is saved all the same
    assert action == "added"
    assert [m.content for m in a.list_memories("local")] == [TEXT]
    monkeypatch.undo()
    assert not cache._db.in_transaction  # the failed cache write was rolled back, not left open
    computed = cache.computed
    cache.embed_passages(["员工每年享有五天带薪年假"])  # nothing was cached meanwhile: embedded again, and cached now
    cache.embed_passages(["员工每年享有五天带薪年假"])
    assert cache.computed == computed + 1


@pytest.mark.parametrize(("failure", "sql", "said"), [
    (sqlite_full, "COMMIT", "磁盘空间已满"),
    (sqlite_full, "INSERT", "磁盘空间已满"),
    (sqlite_busy, "BEGIN", "正被另一个进程占用"),
])
def test_a_failed_memory_write_is_one_chinese_refusal(tmp_path, monkeypatch, failure, sql, said):
    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我喜欢喝茶")  # the store is open and its centres written
    store = a.memory
    monkeypatch.setattr(store, "_conn", Failing(store._conn, failure(), sql=sql))
    with pytest.raises(MemoryStoreError) as caught:
        a.remember("local", TEXT)
    message = str(caught.value)
    assert said in message and "记忆" in message and "请" in message, message
    assert "database" not in message and "已损坏" not in message, message
    monkeypatch.undo()
    assert [m.content for m in a.list_memories("local")] == ["我喜欢喝茶"]  # nothing half-written
    a.remember("local", TEXT)  # the disk has room again: the same save goes through
    assert len(a.list_memories("local")) == 2


@pytest.mark.parametrize("failure", [sqlite_full, sqlite_busy])
def test_the_chat_warning_on_a_memory_failure_is_chinese(failure):
    line = memory_unreadable(failure())
    assert "database" not in line and "locked" not in line, line
    assert line.startswith("记忆库出错") and "请" in line, line


def test_the_memories_page_shows_a_full_disk_in_chinese_and_keeps_the_text(tmp_path, monkeypatch):
    import ui.state

    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我喜欢喝茶")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    assert not at.exception, [e.value for e in at.exception]
    monkeypatch.setattr(a.memory, "_conn", Failing(a.memory._conn, sqlite_full(), sql="COMMIT"))
    at.text_area(key="memory_add_text").set_value(TEXT)
    next(b for b in at.button if b.label == "保存记忆").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any("没有保存" in e and "磁盘空间已满" in e for e in errors), errors
    assert not any("database" in e for e in errors), errors
    assert at.text_area(key="memory_add_text").value == TEXT
