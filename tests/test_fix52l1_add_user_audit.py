"""A password typed into the new-user name box is not kept in the audit trail (review 52l, defect 6): a name that
fails the name rule or the reserved check is recorded as `AccountStore.stranger` tags it, as login does."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import AccountError, Principal

LOCAL = Principal("local", "admin")
BOSS = Principal("boss", "admin")


@pytest.mark.parametrize("typed", ["Hr#2026!秋", "ｌｏｃａｌ", "pаssword-2026", "x"])
def test_a_refused_name_is_recorded_as_a_tag_not_as_typed(tmp_path, typed):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    with pytest.raises(AccountError):
        assistant.add_user(typed, "employee", "zhangsan01", actor=BOSS)  # name and password boxes mixed up
    row = assistant.audit_entries(actor=BOSS, action="user.add")[0]
    assert row.outcome == "failed"
    assert typed not in row.target + row.detail
    assert row.target == assistant.accounts.stranger(typed)


def test_a_valid_name_refused_for_another_reason_is_still_recorded_by_name(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    with pytest.raises(AccountError):
        assistant.add_user("wang", "employee", "short", actor=BOSS)
    assert assistant.audit_entries(actor=BOSS, action="user.add")[0].target == "wang"
