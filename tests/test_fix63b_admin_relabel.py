"""Review rev-own2, R1/R2: an account's audiences stored the old way (Managers, 管理者) were rewritten as their labels
on the read path (`session_principal` → an unconditional UPDATE of audiences read earlier). An administrator's change
between the read and the write was overwritten (a revoked grant came back), and while another process held the
account file every session check of such an account waited SQLite's 5 s, holding the store's lock (everyone's page
load queued), and then handed out a principal the stored, later relabelled, account no longer matched (a silent
logout). Now old spellings are read as their labels in memory wherever an account is read, and the one-off rewrite is
a compare-and-set when the store is opened that never waits for a busy file. Each test failed before the fix.
"""

from __future__ import annotations

import sqlite3
import time

import pytest
from fakes import fake_assistant

from rag_core import PermissionDenied

PW = "Zq8!wide-open"


def _legacy(path, name: str, stored: str) -> None:
    with sqlite3.connect(path) as db:  # as an older version stored it
        db.execute("UPDATE users SET audiences = ? WHERE name = ?", (stored, name))


def _raw(path, name: str) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT audiences FROM users WHERE name = ?", (name,)).fetchone()[0]


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", PW)
    boss = a.session_principal(a.login("boss", PW))
    a.add_user("zhang", "employee", PW, actor=boss)
    _legacy(a.accounts.path, "zhang", "Managers")
    return a, boss


def test_a_page_load_never_undoes_a_revocation_made_meanwhile(team):
    a, boss = team
    token = a.login("zhang", PW)
    store = a.accounts
    real = store.resolve_session

    def read_then_revoked(tok):
        account = real(tok)  # the page load has read the account; meanwhile the administrator revokes the grant
        a.set_user_role("zhang", "employee", [], actor=boss)
        return account

    store.resolve_session = read_then_revoked
    try:
        principal = a.session_principal(token)
    finally:
        store.resolve_session = real
    assert principal is not None and principal.audiences == ("managers",)  # read as it stood when read
    assert store.get("zhang").audiences == ()  # the revocation stands
    assert _raw(store.path, "zhang") == ""
    with pytest.raises(PermissionDenied):  # and the stale principal acts no more
        a.search("考核", actor=principal)


def test_a_session_check_never_writes_nor_waits_for_a_busy_file(team):
    a, _ = team
    zhang = a.login("zhang", PW)
    other = sqlite3.connect(a.accounts.path, isolation_level=None)  # another app process or the CLI mid-write
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        principal = a.session_principal(zhang)
        took = time.monotonic() - started
    finally:
        other.rollback()
        other.close()
    assert took < 1.0
    assert principal is not None and principal.audiences == ("managers",)
    assert _raw(a.accounts.path, "zhang") == "Managers"  # nothing written by a read
    # the principal handed out matches the account as it stands, stored old or new: no silent logout
    assert a.session_principal(zhang) == principal
    assert a.search("考核", actor=principal) is not None


def test_a_principal_spelled_the_old_way_still_matches_its_account(team):
    a, _ = team
    principal = a.session_principal(a.login("zhang", PW))
    stale = type(principal)(user=principal.user, role=principal.role, audiences=("Managers",))
    assert a.search("考核", actor=stale) is not None  # compared as labels: not refused as changed


def test_opening_the_store_rewrites_old_spellings_once(team, tmp_path):
    a, _ = team
    _legacy(a.accounts.path, "boss", "管理者,HR")
    again = fake_assistant(tmp_path / "store")
    assert again.accounts.get("zhang").audiences == ("managers",)
    assert _raw(again.accounts.path, "zhang") == "managers"
    assert _raw(again.accounts.path, "boss") == "hr,managers"


def test_opening_the_store_skips_the_rewrite_while_the_file_is_busy(team, tmp_path):
    a, _ = team
    other = sqlite3.connect(a.accounts.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        again = fake_assistant(tmp_path / "store")
        zhang = again.accounts.get("zhang")
        took = time.monotonic() - started
    finally:
        other.rollback()
        other.close()
    assert took < 2.0
    assert zhang.audiences == ("managers",)  # read as its label all the same
    assert _raw(a.accounts.path, "zhang") == "Managers"  # left for a later opening


def test_the_rewrite_at_opening_keeps_a_change_made_after_the_read(tmp_path):
    from rag_core.accounts.store import AccountStore
    from rag_core.documents.audience_names import audience_label

    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", PW)
    a.add_user("zhang", "employee", PW, actor=a.session_principal(a.login("boss", PW)))
    _legacy(a.accounts.path, "zhang", "Managers")
    store = AccountStore(a.accounts.path, label=audience_label)
    rows = store._db.execute("SELECT name, audiences FROM users").fetchall()  # what the rewrite reads first
    _legacy(a.accounts.path, "zhang", "finance")  # then another process changes the grant
    store.relabel_stored(rows)
    assert _raw(a.accounts.path, "zhang") == "finance"
