"""Session tokens cannot be rebuilt from a copy of accounts.sqlite3 (review 52l, defect 2): the file holds the
signing secret, so it must not hold the session ids too; it holds their sha256 only."""

from __future__ import annotations

import hashlib
import hmac
import shutil
import sqlite3

from fakes import fake_assistant

from rag_core import Principal
from rag_core.accounts.store import AccountStore

LOCAL = Principal("local", "admin")


def _forgeries(copy) -> list[str]:
    """Every token a reader of the copied file could build: each stored id signed with the stored secret."""
    with sqlite3.connect(copy) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM sessions")]
        secret = bytes.fromhex(db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0])
    return [f"{sid}.{hmac.new(secret, sid.encode(), hashlib.sha256).hexdigest()[:32]}" for sid in ids]


def test_a_copy_of_the_account_file_gives_no_token_that_resolves(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    token = assistant.login("boss", "correct horse")  # boss is logged in in a browser
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(assistant.accounts.path, copy)  # a backup, or the 0600 file read once
    forged = _forgeries(copy)
    assert forged and token not in forged
    assert all(assistant.session_principal(t) is None for t in forged)
    assert assistant.session_principal(token) == Principal("boss", "admin")  # the real token still works


def test_a_session_closes_and_ends_by_its_hash(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("zhang", "employee", "correct horse")
    first, second = store.open_session("zhang"), store.open_session("zhang")
    store.close_session(first)
    assert store.resolve_session(first) is None and store.resolve_session(second).name == "zhang"
    store.end_sessions("zhang")
    assert store.resolve_session(second) is None


def test_a_session_stored_the_old_way_no_longer_resolves(tmp_path):
    """Raw ids from before the change: the token is signed right, but nothing stored matches its hash."""
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("zhang", "employee", "correct horse")
    token = store.open_session("zhang")
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE sessions SET id = ?", (token.split(".")[0],))
    assert store.resolve_session(token) is None
