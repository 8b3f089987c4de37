"""Every login answer costs one password hash (review 52n1 #3).

A locked account answered before any hash (0.2 ms) while an unknown name cost a dummy verify (230 ms):
the time told a guesser which names are real. Counted, not timed: the verify calls per outcome.
"""

from __future__ import annotations

import pytest

import rag_core.accounts.store as store_module
from rag_core.accounts.store import MAX_FAILURES, AccountStore

PASSWORD = "Correct-horse-9"


@pytest.fixture
def store(tmp_path) -> AccountStore:
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("zhang", "employee", PASSWORD)
    store.add("locked", "employee", PASSWORD)
    store.add("off", "employee", PASSWORD)
    store.set_disabled("off")
    for _ in range(MAX_FAILURES):
        store.authenticate("locked", "wrong-guess")
    store.authenticate("nobody", "warm-the-dummy")
    return store


@pytest.mark.parametrize(("name", "password", "outcome"), [
    ("locked", "wrong-guess", "locked"),
    ("locked", PASSWORD, "locked"),
    ("nobody", "wrong-guess", "wrong"),
    ("zhang", "wrong-guess", "wrong"),
    ("off", PASSWORD, "disabled"),
    ("zhang", PASSWORD, "ok"),
])
def test_every_answer_verifies_one_hash(store: AccountStore, monkeypatch, name: str, password: str, outcome: str):
    calls: list[str] = []
    real = store_module._verify

    def counted(hasher, digest: str, typed: str) -> bool:
        calls.append(digest)
        return real(hasher, digest, typed)

    monkeypatch.setattr(store_module, "_verify", counted)
    assert store.authenticate(name, password).outcome == outcome
    assert len(calls) == 1
