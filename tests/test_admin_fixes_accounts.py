"""Account store defects found by the admin review (each test failed before its fix)."""

from __future__ import annotations

import threading

from rag_core.accounts.store import MAX_FAILURES, AccountStore


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
