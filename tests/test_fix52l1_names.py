"""Look-alike account names (review 52l, defect 1): names are compared by one key (NFKC, casefold, look-alike
letters), for duplicates and for the reserved names; a store that already holds such a pair still opens."""

from __future__ import annotations

import sqlite3

import pytest

from rag_core import AccountError
from rag_core.accounts.store import AccountStore

PASSWORD = "correct horse"


@pytest.mark.parametrize("name", ["Admin", "ADMIN", "ａｄｍｉｎ", "аdmin", "ΑDMIN"])
def test_a_name_that_reads_as_an_existing_one_is_refused(tmp_path, name):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("admin", "admin", PASSWORD)
    with pytest.raises(AccountError, match="太相似|混用"):
        store.add(name, "employee", PASSWORD)
    assert [a.name for a in store.list()] == ["admin"]


@pytest.mark.parametrize("name", ["ｌｏｃａｌ", "LOCAL", "ｓｙｓｔｅｍ", "本機用户", "本機用戶", "單點登錄", "lосal"])
def test_a_reserved_name_in_another_width_case_or_form_is_refused(tmp_path, name):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    with pytest.raises(AccountError, match="保留|混用"):
        store.add(name, "admin", PASSWORD)
    assert store.list() == []


def test_names_mixing_latin_and_cyrillic_are_refused_even_without_a_twin(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    with pytest.raises(AccountError, match="混用"):
        store.add("zhаng", "employee", PASSWORD)  # Cyrillic а


def test_distinct_names_are_still_accepted(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    for name in ("admin", "li", "li.wang", "张三", "张三丰", "Иван", "wang-2"):
        store.add(name, "admin", PASSWORD)
    assert len(store.list()) == 7


def test_a_store_that_already_holds_a_lookalike_pair_opens_and_refuses_a_third(tmp_path):
    path = tmp_path / "accounts.sqlite3"
    AccountStore(path).add("admin", "admin", PASSWORD)
    with sqlite3.connect(path) as db:  # made before the rule
        db.execute("INSERT INTO users (name, role, password_hash, created_at) "
                   "SELECT 'Admin', role, password_hash, created_at FROM users WHERE name = 'admin'")
    store = AccountStore(path)
    assert {a.name for a in store.list()} == {"admin", "Admin"}
    assert store.authenticate("Admin", PASSWORD).ok and store.authenticate("admin", PASSWORD).ok
    with pytest.raises(AccountError, match="太相似"):
        store.add("ADMIN", "employee", PASSWORD)
