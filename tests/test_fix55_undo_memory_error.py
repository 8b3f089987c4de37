"""撤销 of a statement turn writes to the memory store: its failure names that store, not the conversations store
(review 168: a full or damaged memory store was said as conversations.sqlite3（对话记录）, sending HR to restore the
wrong file)."""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

from rag_core.errors import MemoryStoreError


def _failing(code: int, message: str):
    def fail(*_args, **_kwargs):
        error = sqlite3.OperationalError(message)
        error.sqlite_errorcode = code
        raise error
    return fail


@pytest.mark.parametrize(("code", "message", "said"), [
    (sqlite3.SQLITE_FULL, "database or disk is full", "磁盘空间已满"),
    (sqlite3.SQLITE_CORRUPT, "database disk image is malformed", "可能已损坏"),
])
def test_fix55_a_memory_failure_during_undo_names_the_memory_store(tmp_path, monkeypatch, code, message, said):
    a = fake_assistant(tmp_path / "s")
    trace = a.ask("我常驻杭州。", user="zhangsan", conversation="c1")
    assert trace.acknowledged
    monkeypatch.setattr(a.memory, "undo", _failing(code, message))
    with pytest.raises(MemoryStoreError) as caught:
        a.undo_acknowledged("c1", trace.turn)
    text = str(caught.value)
    assert "memory.sqlite3" in text and said in text
    assert "conversations.sqlite3" not in text and "database" not in text
