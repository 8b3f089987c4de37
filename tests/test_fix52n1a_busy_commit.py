"""A write that meets a busy database leaves no transaction open (review 52n1 #1).

Another connection holds a read transaction, so this store's COMMIT cannot take the write lock
("database is locked"). Before the fix the commit sat outside the rollback: the transaction stayed
open holding its lock, every later write failed with "cannot start a transaction within a
transaction", and the change reported as failed was saved by the next unrelated commit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from rag_core.accounts.store import AccountStore

PASSWORD = "Correct-horse-9"

# every kind of write the store does, each against a reader that blocks its commit
WRITES: dict[str, Callable[[AccountStore], object]] = {
    "set_role": lambda s: s.set_role("li", "employee"),
    "reset_password": lambda s: s.reset_password("li", "Another-horse-7"),
    "wrong_login": lambda s: s.authenticate("li", "wrong-guess"),
    "open_session": lambda s: s.open_session("li"),
    "end_sessions": lambda s: s.end_sessions("li"),
    "add": lambda s: s.add("zhao", "employee", PASSWORD),
}


@pytest.fixture
def store(tmp_path) -> AccountStore:
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("wang", "admin", PASSWORD)
    store.add("li", "hr", PASSWORD)
    store.open_session("li")
    store._db.execute("PRAGMA busy_timeout = 50")  # the reader never lets go while it waits: fail soon
    return store


def _state(path) -> tuple:
    """What another process reads: li's role and failure count, the sessions, the accounts."""
    with sqlite3.connect(path, timeout=0) as other:
        return (other.execute("SELECT role, failed, password_hash FROM users WHERE name = 'li'").fetchone(),
                other.execute("SELECT count(*) FROM sessions").fetchone(),
                other.execute("SELECT name FROM users ORDER BY name").fetchall())


@pytest.mark.parametrize("write", list(WRITES))
def test_a_commit_refused_as_busy_is_rolled_back(store: AccountStore, write: str) -> None:
    before = _state(store.path)
    reader = sqlite3.connect(store.path)
    reader.execute("BEGIN")
    reader.execute("SELECT * FROM users").fetchall()  # holds a read lock: no commit can finish
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked|busy"):
            WRITES[write](store)
        assert not store._db.in_transaction  # nothing left open, no lock held
    finally:
        reader.rollback()
        reader.close()
    assert _state(store.path) == before  # another process can read, and the failed change is not there
    store.authenticate("wang", "wrong-guess")  # an unrelated write commits nothing of the failed one
    assert _state(store.path)[0] == before[0]
    # the store still works: a login and a change succeed
    assert store.authenticate("li", PASSWORD).ok
    assert store.set_role("li", "employee").role == "employee"


def test_a_leftover_transaction_is_never_committed_by_the_next_write(store: AccountStore) -> None:
    """Should a transaction be left open anyway, the next write starts clean instead of failing or saving it."""
    store._db.execute("UPDATE users SET role = 'admin' WHERE name = 'li'")  # implicit, uncommitted
    assert store._db.in_transaction
    store.open_session("wang", now=datetime.now(UTC) - timedelta(minutes=1))
    assert not store._db.in_transaction
    assert store.get("li").role == "hr"


@pytest.mark.parametrize("change", ["set_disabled", "set_role", "reset_password"])
def test_a_change_and_the_end_of_its_sessions_are_one_write(store: AccountStore, change: str) -> None:
    """Ending the sessions failed after the change was saved: reported as failed, the new password (or the
    disabling) stood while the sessions it should have ended went on. Now both or neither."""
    token = store.open_session("li")
    store._db.executescript("CREATE TRIGGER refuse BEFORE DELETE ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END;")
    before = _state(store.path)
    call = {"set_disabled": lambda: store.set_disabled("li"), "set_role": lambda: store.set_role("li", "employee"),
            "reset_password": lambda: store.reset_password("li", "Another-horse-7")}[change]
    with pytest.raises(sqlite3.Error):
        call()
    assert _state(store.path) == before and not store.get("li").disabled
    assert store.resolve_session(token) is not None
