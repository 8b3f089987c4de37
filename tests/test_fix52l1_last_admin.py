"""The last-administrator rule holds across processes (review 52l, defect 3): two app replicas on one data dir
each demoting the other administrator at once must leave one administrator."""

from __future__ import annotations

import threading

import pytest

from rag_core import AccountError
from rag_core.accounts.store import AccountStore

WAIT_S = 1.0  # how long a check waits for the other replica's check to arrive too (never asserted)


def test_two_replicas_cannot_demote_the_last_two_admins_at_once(tmp_path, monkeypatch):
    path = tmp_path / "accounts.sqlite3"
    one, two = AccountStore(path), AccountStore(path)  # two stores, two connections: two processes' view
    one.add("wang", "admin", "correct horse")
    one.add("li", "admin", "correct horse")
    gate = threading.Barrier(2)
    original = AccountStore._last_active_admin

    def meet_then_check(self, name):
        """Hold each answer until the other replica has checked too: both checks before either write, the
        window two processes really have. With the check inside the write transaction the other cannot
        check meanwhile, and the wait gives up."""
        answer = original(self, name)
        try:
            gate.wait(WAIT_S)
        except threading.BrokenBarrierError:
            pass
        return answer

    monkeypatch.setattr(AccountStore, "_last_active_admin", meet_then_check)
    errors: list[Exception] = []

    def demote(store, name):
        try:
            store.set_role(name, "employee")
        except AccountError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=demote, args=(one, "wang")), threading.Thread(target=demote, args=(two, "li"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    admins = [a.name for a in AccountStore(path).list() if a.role == "admin" and not a.disabled]
    assert len(admins) == 1, admins
    assert len(errors) == 1 and "最后一位" in str(errors[0])


def test_a_refused_change_writes_nothing_and_the_store_stays_usable(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("wang", "admin", "correct horse")
    with pytest.raises(AccountError, match="最后一位"):
        store.set_disabled("wang")
    assert not store.get("wang").disabled
    store.add("li", "admin", "correct horse")  # the refused transaction was rolled back, not left open
    assert store.set_disabled("wang").disabled
