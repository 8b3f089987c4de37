"""Review 335: a folder where a store file should be was said as permissions by the pages ("请检查目录权限") and as
damage by doctor ("数据库文件已损坏…restore"): two fixes, neither true. Both now name the folder."""

from __future__ import annotations

import gc
import re

import pytest
from fakes import fake_assistant

from rag_core.errors import RagError

FOLDER_LINE = "是一个文件夹，不是文件"
POLICY = "# 年假制度\n\n第一条 员工每年享有年假5天，需提前三天申请。\n".encode()


def _folder_in_place(tmp_path, name):
    """A store with a policy and a kept turn, closed, then a folder where `name` (and its side files) were."""
    store = tmp_path / "store"
    a = fake_assistant(store)
    assert a.ingest_bytes(POLICY, "年假.md").ok
    a.ask("年假有几天", user="alice", conversation="c1")
    a.release_data_dir()
    a.catalog.close()
    del a
    gc.collect()
    for side in ("", "-wal", "-shm", "-journal"):
        (store / f"{name}{side}").unlink(missing_ok=True)
    (store / name).mkdir()
    return store


def _store_with_folder(tmp_path, name):
    return fake_assistant(_folder_in_place(tmp_path, name))


@pytest.mark.parametrize("name, use", [
    ("conversations.sqlite3", lambda a: a.list_conversations("alice")),
    ("insights.sqlite3", lambda a: a.usage()),
    ("standard_answers.sqlite3", lambda a: a.standard_answers()),
])
def test_a_folder_in_place_of_a_store_is_named_by_the_action_and_by_doctor(tmp_path, name, use):
    a = _store_with_folder(tmp_path, name)
    with pytest.raises(RagError, match=FOLDER_LINE):
        use(a)
    [row] = [c for c in a.doctor() if c.file.startswith(name)]
    assert FOLDER_LINE in row.line() and "损坏" not in row.line()
    assert "5天" in a.ask("年假有几天", user="alice", remember=False).answer  # asking goes on


@pytest.mark.parametrize("name", ["embedding_cache.sqlite3", "sentences.sqlite3", "chroma/chroma.sqlite3"])
def test_a_folder_in_place_of_a_cache_is_set_aside_at_start_and_answers_come(tmp_path, name):
    """Review 336: a cache's folder stopped the start as "无法读取（只读或没有权限）"; one in place of Chroma's database
    gave two notices, one in Chroma's English. Caches are rebuilt from the catalog: the folder is moved aside."""
    a = _store_with_folder(tmp_path, name)
    said = " ".join(a.store_notices)
    assert "已移到" in said and not re.search(r"[A-Za-z]{4,} [a-z]{3,} [a-z]{3,}", said), said
    assert FOLDER_LINE in said and "移走或改名" not in said  # review 337: it asked to move what it had moved
    assert "5天" in a.ask("年假有几天", user="alice", remember=False).answer


def test_a_folder_in_place_of_the_audit_trail_is_named_while_pages_stay_closed(tmp_path):
    """Review 336: with no account and the audit trail unreadable the pages stay closed (nothing tells whether accounts
    existed here), but a folder was called damage, with a restore as its fix."""
    from rag_core.storage.account_files import lost_accounts

    store = _folder_in_place(tmp_path, "audit.sqlite3")
    detail, fix = lost_accounts(store)
    assert FOLDER_LINE in detail and "损坏" not in detail
    # review 337: moving it away alone opens the pages without login; the fix says what a damaged one's says
    assert "users add" in fix and "从未开启过账户" in fix


def test_with_a_folder_in_place_of_the_audit_trail_doctor_gives_one_safe_fix_and_a_refusal_stays_a_refusal(tmp_path):
    """Review 338: doctor's own audit row said just move the folder (the pages then open without login), and the
    audit row of a class-level action raised the folder's error instead of the action's result."""
    from rag_core.assistant import Assistant
    from rag_core.errors import PermissionDenied
    from rag_core.types import Principal

    store = _folder_in_place(tmp_path, "audit.sqlite3")
    rows = [c.line() for c in Assistant.doctor_data_dir(store, actor=Principal("local", "admin")) if not c.ok]
    assert not any("移走或改名" in row for row in rows) and any("从未开启过账户" in row for row in rows), rows
    with pytest.raises(PermissionDenied):
        Assistant.doctor_data_dir(store, actor=Principal("e1", "employee"))
