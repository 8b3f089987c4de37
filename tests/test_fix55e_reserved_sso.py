"""An account with a reserved name (made before the names were reserved) opens no session by single sign-on or
by an old session, as it opens none by password (review 55e, defect 3)."""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.errors import AccountError

PW = "Correct-horse-9"
ADMIN = Principal("wang", "admin")


@pytest.fixture
def team(tmp_path):
    team = fake_assistant(tmp_path / "store")
    team.add_user("wang", "admin", PW)
    team.add_user("placeholder", "admin", PW, email="sys@example.com", actor=ADMIN)
    return team


def _rename_to_system(team) -> None:
    with sqlite3.connect(team.accounts.path) as db:  # as a store from before the reserved names holds it
        db.execute("UPDATE users SET name = 'system' WHERE name = 'placeholder'")
        db.execute("UPDATE sessions SET user = 'system' WHERE user = 'placeholder'")


def test_single_sign_on_refuses_a_reserved_account_as_password_login_does(team):
    _rename_to_system(team)
    with pytest.raises(AccountError) as by_password:
        team.login("system", PW)
    with pytest.raises(AccountError) as by_email:
        team.login_by_email("sys@example.com", verified=True)
    assert str(by_email.value) == str(by_password.value)
    rows = [e for e in team.audit_entries(actor=ADMIN, action="login") if e.actor == "system"]
    assert [e.outcome for e in rows] == ["failed", "failed"]
    assert "单点登录" in rows[0].detail


def test_an_old_session_of_a_reserved_account_resolves_to_nobody(team):
    token = team.login("placeholder", PW)
    _rename_to_system(team)
    assert team.session_principal(token) is None
