"""Trivial passwords are refused (review 52l, defect 5): all spaces, the user's own name inside, all digits or
one character, and the commonest passwords of eight characters or more."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import AccountError, Principal
from rag_core.accounts.passwords import check_password
from rag_core.accounts.store import AccountStore

LOCAL = Principal("local", "admin")


@pytest.mark.parametrize(("name", "password", "reason"), [
    ("wang", " " * 8, "空格"),
    ("wang", "\t \u3000  \n  ", "空格"),
    ("li_wang1", "li_wang1", "用户名"),
    ("wang", "WANG-wang-2026", "用户名"),
    ("wang", "12345678", "数字"),
    ("wang", "１２３４５６７８９", "数字"),  # full-width digits
    ("wang", "aaaaaaaaaa", "同一个字符"),
    ("wang", "password", "常见"),
    ("wang", "Password", "常见"),
    ("wang", "qwertyui", "常见"),
    ("wang", "abc12345", "常见"),
    ("wang", "11111111", "数字"),
    ("wang", "88888888", "数字"),
])
def test_a_trivial_password_is_refused_with_a_reason(tmp_path, name, password, reason):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    with pytest.raises(AccountError, match=reason):
        store.add(name, "admin", password)
    store.add(name, "admin", "correct horse")
    with pytest.raises(AccountError, match=reason):
        store.reset_password(name, password)


@pytest.mark.parametrize(("name", "password"), [
    ("li", "police-light-9"),  # a two-letter name inside a password is no giveaway
    ("wang", "correct horse"),
    ("zhang", "battery staple"),
    ("wang", "Passw0rd!Passw0rd"),
    ("root", "pw-admin-123456"),
])
def test_ordinary_passwords_are_still_accepted(name, password):
    assert check_password(password, name) == password


def test_the_facade_refuses_a_trivial_password_and_audits_the_refusal(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    with pytest.raises(AccountError, match="常见"):
        assistant.add_user("wang", "employee", "password", actor=Principal("boss", "admin"))
    row = assistant.audit_entries(action="user.add", actor=LOCAL)[0]
    assert (row.target, row.outcome) == ("wang", "failed")
