"""A store file truncated to 0 bytes is said, kept aside and replaced, never read as new (review 54e #3).

SQLite opens a 0-byte file as an empty database: everyone's memories (and conversations, insights, standard
answers, the audit trail) vanished without a word, and doctor said 正常. Real files, really truncated.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.storage.health import doctor

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
STORES = ("memory.sqlite3", "conversations.sqlite3", "insights.sqlite3", "standard_answers.sqlite3", "audit.sqlite3")


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.release_data_dir()
    del assistant
    gc.collect()
    for name in STORES:  # truncated (or written as 0 bytes, which is the same to SQLite)
        (data / name).open("wb").close()
    return data


def test_fix54e_doctor_names_each_truncated_store(store):
    rows = {check.file: check for check in doctor(store)}
    for name in STORES:
        assert rows[name].status == "damaged" and "0 字节" in rows[name].detail, rows[name].line()
        assert not rows[name].ok


def test_fix54e_start_keeps_a_truncated_store_aside_and_says_so(store):
    assistant = fake_assistant(store)
    notices = "\n".join(assistant.store_notices)
    for name in STORES:
        assert f"{name} 是空的（0 字节），可能被截断" in notices
        kept = list(store.glob(f"{name}.damaged-*"))
        assert len(kept) == 1 and kept[0].stat().st_size == 0
        assert not (store / name).exists() or (store / name).stat().st_size > 0
    assert "所有人的记忆没有了" in notices
    assistant.release_data_dir()
    del assistant
    gc.collect()
    again = fake_assistant(store)  # said once: the next start finds nothing truncated
    assert not any("0 字节" in line for line in again.store_notices)
