"""A name typed as it reads reaches its account (review 59, fix-acct): names are unique by their key (case, width,
look-alike letters), so an account made as ａｌｉｃｅ or Alice refuses a new alice; logging in as alice said only
用户名或密码不正确. The login, the lock and the administrator's actions now resolve a typed name to the one stored
account it reads as, and act under the stored name."""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.accounts.store import MAX_FAILURES, WRONG_LOGIN
from rag_core.errors import AccountError

PW = "Zq8#kLm2vX-2"
BOSS_PW = "Zq8#kLm2vX"


@pytest.fixture
def team(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.add_user("boss", "admin", BOSS_PW)
    return a, a.session_principal(a.login("boss", BOSS_PW))


@pytest.mark.parametrize("made, typed", [("ａｌｉｃｅ", "alice"), ("Alice", "alice"), ("Alice", "ALICE"),
                                         ("alice", " Ａｌｉｃｅ ")])
def test_the_person_logs_in_with_the_name_as_they_read_it(team, made, typed):
    a, boss = team
    a.add_user(made, "employee", PW, actor=boss)
    with pytest.raises(AccountError, match="太相似"):  # the key already names the account
        a.add_user(typed, "employee", PW, actor=boss)
    me = a.session_principal(a.login(typed, PW))
    assert me == Principal(made, "employee")  # the stored name: its memories, conversations and audit rows
    row = a.audit_entries(action="login", actor=boss)[0]
    assert (row.actor, row.outcome) == (made, "ok")


def test_a_wrong_password_under_any_spelling_counts_against_the_one_account(team):
    a, boss = team
    a.add_user("Alice", "employee", PW, actor=boss)
    for attempt in range(MAX_FAILURES):
        with pytest.raises(AccountError):
            a.login(["alice", "ALICE", "Alice", "ａｌｉｃｅ"][attempt % 4], "not-the-password")
    assert a.accounts.get("Alice").locked_until
    with pytest.raises(AccountError, match="用户名或密码不正确"):  # locked: the right password opens nothing now
        a.login("alice", PW)
    a.reset_user_password("ALICE", PW + "x", actor=boss)  # the administrator names it as it reads, too
    assert a.session_principal(a.login("alice", PW + "x")).user == "Alice"


def test_two_accounts_that_read_the_same_in_an_older_store_are_reached_only_by_their_exact_names(team, tmp_path):
    a, boss = team
    a.add_user("alice", "employee", PW, actor=boss)
    with sqlite3.connect(tmp_path / "s" / "accounts.sqlite3") as db:  # as a store from before the rule kept it
        db.execute("INSERT INTO users (name, role, password_hash, created_at) SELECT 'Alice', role, password_hash, "
                   "created_at FROM users WHERE name = 'alice'")
    for exact in ("alice", "Alice"):
        assert a.session_principal(a.login(exact, PW)).user == exact
    with pytest.raises(AccountError) as refused:  # ALICE is either: neither is guessed
        a.login("ALICE", PW)
    assert str(refused.value) == WRONG_LOGIN
    assert a.accounts.resolve("ALICE") is None


def test_an_unknown_name_is_still_recorded_as_a_tag(team):
    a, boss = team
    a.add_user("Alice", "employee", PW, actor=boss)
    with pytest.raises(AccountError, match="用户名或密码不正确"):
        a.login("Alicia", PW)
    row = a.audit_entries(action="login", actor=boss)[0]
    assert row.actor.startswith("未知用户#") and "Alicia" not in row.actor


def test_administrator_actions_reach_the_account_the_typed_name_reads_as(team):
    a, boss = team
    a.add_user("Alice", "employee", PW, actor=boss)
    assert a.set_user_role("alice", "hr", actor=boss).name == "Alice"
    assert a.accounts.get("Alice").role == "hr"
    assert a.set_user_disabled("ＡＬＩＣＥ", True, actor=boss).disabled
    rows = a.audit_entries(action="user.disable", actor=boss)
    assert rows[0].target == "Alice"  # audited under the stored name
    with pytest.raises(AccountError, match="当前登录"):  # BOSS is boss: still oneself
        a.set_user_disabled("BOSS", True, actor=boss)
    assert not a.accounts.get("boss").disabled


def test_the_login_page_logs_in_the_name_as_typed(tmp_path, monkeypatch):
    from app_support import logged_in_with

    from ui.state import PRINCIPAL_KEY

    a = fake_assistant(tmp_path / "s")
    a.add_user("boss", "admin", BOSS_PW)
    a.add_user("ａｌｉｃｅ", "employee", PW, actor=Principal("boss", "admin"))  # made with the IME in full width
    at = logged_in_with(a, "../app.py", "alice", PW, tmp_path, monkeypatch)
    assert not at.error, [e.value for e in at.error]
    assert at.session_state[PRINCIPAL_KEY] == Principal("ａｌｉｃｅ", "employee")


def test_the_command_line_names_the_stored_account_it_acted_on(tmp_path, capsys, monkeypatch):
    import argparse

    from rag_core.cli import users

    a = fake_assistant(tmp_path / "cli")
    a.add_user("boss", "admin", BOSS_PW)
    a.act_as_local_administrator()  # as the command line does
    a.add_user("Alice", "employee", PW)
    assert users.set_disabled(argparse.Namespace(name="alice", disabled=True), a) == 0
    assert "账户：Alice" in capsys.readouterr().out
    monkeypatch.setattr(users, "read_new_password", lambda: PW + "x")
    assert users.reset_password(argparse.Namespace(name="ALICE"), a) == 0
    assert "已重置 Alice 的密码" in capsys.readouterr().out
