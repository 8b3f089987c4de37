"""A password typed into the name box is never audited as typed, whatever refuses the add (review 52n1 #5).

The first account must be an administrator, and that check ran before the name check: a refused first
account was recorded under the raw text of the name box ('Tr0ub4dor&3 horse'). Now a name that was not yet
accepted when the add failed is recorded as `AccountStore.stranger` tags it.
"""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

from rag_core import AccountError, Principal
from rag_core.errors import StoreBusy

LOCAL = Principal("local", "admin")
TYPED = "Tr0ub4dor&3 horse"  # a password typed into the name box; the role left at 员工


def _rows(assistant) -> list[tuple[str, str, str]]:
    return [(e.target, e.detail, e.outcome) for e in assistant.audit_entries(action="user.add", actor=LOCAL)]


@pytest.mark.parametrize("typed", [TYPED, "wang"])
def test_a_refused_first_account_is_recorded_as_a_tag(tmp_path, typed: str) -> None:
    assistant = fake_assistant(tmp_path / "store")
    with pytest.raises(AccountError, match="第一个账户必须是管理员"):
        assistant.add_user(typed, "employee", "Correct-horse-9", actor=LOCAL)
    [(target, detail, outcome)] = _rows(assistant)
    assert outcome == "failed" and target == assistant.accounts.stranger(typed)
    assert typed not in target + detail


def test_a_busy_file_before_the_name_is_accepted_records_a_tag(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "Correct-horse-9", actor=LOCAL)
    store = assistant.accounts
    store._db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(store.path)
    store._any = False  # has_accounts reads the file again (as a fresh process would)
    other.execute("BEGIN EXCLUSIVE")  # not even a read gets through
    try:
        with pytest.raises(StoreBusy):
            assistant.add_user(TYPED, "employee", "Correct-horse-9", actor=LOCAL)
    finally:
        other.rollback()
        other.close()
    target, detail, outcome = _rows(assistant)[0]
    assert outcome == "failed" and target == store.stranger(TYPED)
    assert TYPED not in target + detail


def test_a_name_accepted_and_then_refused_is_still_recorded_by_name(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    with pytest.raises(AccountError):
        assistant.add_user("wang", "admin", "short", actor=LOCAL)
    assert _rows(assistant)[0][0] == "wang"


def test_an_empty_name_is_recorded_as_empty_with_the_message_intact(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    with pytest.raises(AccountError) as refused:
        assistant.add_user("  ", "admin", "Correct-horse-9", actor=LOCAL)
    assert _rows(assistant)[0][:2] == ("（空用户名）", str(refused.value))
