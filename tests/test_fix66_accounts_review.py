"""Accounts defects of review 342, through the facade (fake embedder, real SQLite) and AppTest; each failed before
its fix.

1. A busy accounts.sqlite3 (another process writing it) made every team-mode page an English traceback: the session
   check each page runs, 用户管理's list, single sign-on and logout raised SQLite's "database is locked".
2. An empty password (Enter in the name box submits the form) counted as a wrong try: five locked the account.
4. The audit trail said a new account's role and audiences as code words (角色 hr；受众 managers).
6. Saving an account's unchanged sign-on address ended all its logins.
"""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant
from test_pages_forms import LOCAL, logged_in_admin

from rag_core.errors import AccountError, StoreBusy

PW = "Zq8!wide-open"


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123", email="boss@example.com", actor=LOCAL)
    a.add_user("li", "hr", PW, audiences=["managers"], email="li@example.com", actor=LOCAL)
    return a


def test_a_busy_accounts_file_is_one_chinese_line_on_every_action_and_page(team, tmp_path, monkeypatch):
    token = team.login("boss", "password123")
    boss = team.session_principal(token)
    at = logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py")
    holder = sqlite3.connect(team.accounts.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing the file
    team.accounts._db.execute("PRAGMA busy_timeout = 200")  # a shorter wait than the store's; the same outcome
    try:
        for call in (lambda: team.session_principal(token), lambda: team.list_users(actor=boss),
                     lambda: team.login_by_email("boss@example.com", verified=True), lambda: team.logout(token)):
            with pytest.raises(StoreBusy, match="正被另一个进程占用"):
                call()
        at.run()  # anything clicked on 用户管理 meanwhile
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not at.exception, [str(e.value)[:200] for e in at.exception]
    said = [e.value for e in (*at.error, *at.warning)]
    assert any("正被另一个进程占用" in line for line in said), said
    assert team.session_principal(token) == boss  # nothing ended: the next run goes on


def test_an_empty_password_is_asked_for_and_never_locks_the_account(team):
    for _ in range(8):
        with pytest.raises(AccountError, match="请输入用户名和密码"):
            team.login("li", "")
    with pytest.raises(AccountError, match="请输入用户名和密码"):
        team.login("  ", PW)
    assert team.session_principal(team.login("li", PW)).user == "li"  # not locked


def test_the_audit_trail_names_roles_and_audiences_as_the_pages_do(team):
    boss = team.session_principal(team.login("boss", "password123"))
    details = [e.detail for e in team.audit_entries(actor=boss) if e.action == "user.add" and e.target == "li"]
    assert details == ["角色 HR；受众 管理者"]


def test_saving_the_same_sign_on_address_ends_no_login(team):
    boss = team.session_principal(team.login("boss", "password123"))
    token = team.login("li", PW)
    team.set_user_email("li", "LI@example.com", actor=boss)  # the same address, another case
    assert team.session_principal(token) is not None
    said = [e.detail for e in team.audit_entries(actor=boss) if e.action == "user.email"]
    assert said and "登录不受影响" in said[0], said  # the trail said the logins were ended (review 344 #9)
    team.set_user_email("li", "li.new@example.com", actor=boss)  # changed: the logins it opened end
    assert team.session_principal(token) is None


def test_the_login_gate_says_a_busy_accounts_file_in_chinese(team, tmp_path, monkeypatch):
    """The session check every page runs first (`ui.layout`, which shows a StoreDamaged, StoreBusy among them): a
    line, not a traceback."""
    at = logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py")

    def busy(token):
        raise StoreBusy("accounts.sqlite3 正被另一个进程占用，请稍后再试")

    monkeypatch.setattr(team, "session_principal", busy)
    at.run()
    assert not at.exception, [str(e.value)[:200] for e in at.exception]
    assert any("正被另一个进程占用" in e.value for e in at.error), [e.value for e in at.error]
