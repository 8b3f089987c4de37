"""Account store defects found by the admin review (each test failed before its fix)."""

from __future__ import annotations

import threading

import pytest

from rag_core.accounts.store import MAX_FAILURES, AccountStore
from rag_core.errors import AccountError


def test_parallel_wrong_passwords_lock_the_account(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("wang", "admin", "password123")
    gate = threading.Barrier(20)
    results = []

    def guess(i: int) -> None:
        gate.wait()
        results.append(store.authenticate("wang", f"guess-{i}"))

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.get("wang").locked_until, store.get("wang")
    assert sum(r.just_locked for r in results) == 1  # one guess locked it: one audit row, one notice
    assert not store.authenticate("wang", "password123").ok  # the right password waits out the lock


def test_sequential_failures_still_lock_at_the_limit(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("wang", "admin", "password123")
    outcomes = [store.authenticate("wang", "wrong-pass").outcome for _ in range(MAX_FAILURES)]
    assert outcomes == ["wrong"] * (MAX_FAILURES - 1) + ["locked"]


@pytest.mark.parametrize("name", ["本机用户", "单点登录"])
def test_names_the_pages_show_for_system_actors_are_reserved(tmp_path, name):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    with pytest.raises(AccountError, match="保留"):
        store.add(name, "admin", "password123")


@pytest.mark.parametrize("email", [
    "[点我](http://evil.example) " + "x" * 100_000,
    "a" * 250 + "@example.com",  # over 254 characters
    "li at example.com",
    "li@example",
])
def test_single_sign_on_email_is_checked_and_bounded(tmp_path, email):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    with pytest.raises(AccountError, match="邮箱格式不正确"):
        store.add("bob", "admin", "password123", email=email)
    assert store.get("bob") is None


def test_plausible_email_is_kept(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    assert store.add("bob", "admin", "password123", email=" zhang.san+hr@example.com ").email == "zhang.san+hr@example.com"
