"""Single sign-on by a disabled account is told what a password login is told (review 52q3 #3): 该账户已停用, audited
under the account's name, not 该邮箱没有对应的账户 with the account unnamed."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.errors import AccountError
from rag_core.types import Principal

ADMIN = Principal("admin1", "admin")


def test_a_disabled_account_signing_on_is_told_it_is_disabled_and_audited_by_name(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("admin1", "admin", "correct horse")
    facade.add_user("zhao", "employee", "correct horse", email="zhao@example.com", actor=ADMIN)
    facade.set_user_disabled("zhao", True, actor=ADMIN)
    with pytest.raises(AccountError, match="该账户已停用") as sso:
        facade.login_by_email("Zhao@Example.com", verified=True)
    with pytest.raises(AccountError) as password:
        facade.login("zhao", "correct horse")
    assert str(sso.value) == str(password.value)
    by_sso, by_password = facade.audit_entries(action="login", actor=ADMIN)[1::-1]
    assert (by_sso.actor, by_sso.target, by_sso.outcome) == ("zhao", "zhao", "failed"), by_sso
    assert "已停用" in by_sso.detail and "单点登录" in by_sso.detail, by_sso
    assert by_password.detail in by_sso.detail
