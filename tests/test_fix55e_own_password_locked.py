"""A logged-in person whose account another's wrong guesses locked is told it is locked, not that their right
current password is wrong (review 55e, defect 4)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.accounts.store import LOCK_MINUTES, MAX_FAILURES
from rag_core.errors import AccountError

PW = "Correct-horse-9"
ADMIN = Principal("wang", "admin")


def test_a_locked_account_is_named_locked_on_the_own_password_form(tmp_path):
    team = fake_assistant(tmp_path / "store")
    team.add_user("wang", "admin", PW)
    team.add_user("zhang", "employee", PW, actor=ADMIN)
    me = team.session_principal(team.login("zhang", PW))
    for _ in range(MAX_FAILURES):  # someone else guesses at zhang's login
        with pytest.raises(AccountError):
            team.login("zhang", "wrong guess")
    with pytest.raises(AccountError) as refused:
        team.change_own_password(PW, "Another-horse-7", actor=me)
    assert str(refused.value) == f"账户因多次输错密码已临时锁定，请 {LOCK_MINUTES} 分钟后再试或请管理员重置密码"
    assert "不正确" not in str(refused.value)
