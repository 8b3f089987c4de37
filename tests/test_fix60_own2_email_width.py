"""An SSO address typed with a Chinese IME in full-width mode is the address the provider sends (review 251 D4):
ｗａｎｇ@example.com was kept as typed, never matched a sign-on, and let another account take wang@example.com."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import AccountError


def test_a_full_width_address_is_kept_as_the_provider_sends_it(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123")
    admin = a.session_principal(a.login("boss", "password123"))
    a.add_user("li", "employee", "password123", actor=admin)
    a.add_user("wang", "hr", "password123", actor=admin)
    assert a.set_user_email("wang", "ｗａｎｇ＠ｅｘａｍｐｌｅ．ｃｏｍ", actor=admin).email == "wang@example.com"
    with pytest.raises(AccountError, match="已属于"):
        a.set_user_email("li", "WANG@example.com", actor=admin)
    signed = a.login_by_email("wang@example.com", verified=True)
    assert signed is not None
