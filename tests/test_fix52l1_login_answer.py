"""A wrong name, a wrong password and a locked account get one answer (review 52l, defect 4; SECURITY.md): a
locked real account said 已锁定 while an unknown name kept saying 用户名或密码不正确, which named real accounts.
The audit trail still records the lock."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import AccountError, Principal
from rag_core.accounts.store import MAX_FAILURES

LOCAL = Principal("local", "admin")


def _answers(assistant, name: str, password: str, tries: int) -> list[str]:
    answers = []
    for _ in range(tries):
        with pytest.raises(AccountError) as refused:
            assistant.login(name, password)
        answers.append(str(refused.value))
    return answers


def test_a_locked_account_and_an_unknown_name_get_the_same_answer(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    assistant.add_user("li", "employee", "correct horse", actor=Principal("boss", "admin"))
    real = _answers(assistant, "li", "guess-guess", MAX_FAILURES + 1)
    unknown = _answers(assistant, "nobody", "guess-guess", MAX_FAILURES + 1)
    assert real == unknown and len(set(real)) == 1
    assert _answers(assistant, "li", "correct horse", 1) == real[:1]  # the right password while locked, too
    assert "锁定" in real[0]  # the one answer says that accounts lock, so a locked person knows to wait


def test_the_audit_trail_still_says_the_account_locked(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    assistant.add_user("li", "employee", "correct horse", actor=Principal("boss", "admin"))
    _answers(assistant, "li", "guess-guess", MAX_FAILURES + 1)
    rows = [(e.outcome, e.detail) for e in assistant.audit_entries(user="li", action="login", actor=LOCAL)]
    assert rows[0] == ("locked", "账户锁定期间尝试登录")
    assert rows[1][0] == "locked" and "已锁定" in rows[1][1]
    assert rows[2] == ("failed", "用户名或密码不正确")
