"""The audit trail says what was attempted and what changed (review 55e, defect 5): a refused call named only the
permission (an HR user's role change read as any users-page refusal), a role change only the new role's code."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.errors import PermissionDenied

PW = "Correct-horse-9"
ADMIN = Principal("wang", "admin")
HR = Principal("li", "hr")


@pytest.fixture
def team(tmp_path):
    team = fake_assistant(tmp_path / "store")
    team.add_user("wang", "admin", PW)
    team.add_user("li", "hr", PW, actor=ADMIN)
    team.add_user("zhao", "employee", PW, actor=ADMIN)
    return team


def _refused(team):
    return [e for e in team.audit_entries(actor=ADMIN, action="refused")]


def test_a_refused_role_change_names_the_change_and_the_account(team):
    with pytest.raises(PermissionDenied):
        team.set_user_role("li", "admin", actor=HR)
    with pytest.raises(PermissionDenied):
        team.list_users(actor=HR)
    change, listing = _refused(team)[1], _refused(team)[0]  # newest first
    assert change.target == "li"
    assert "修改角色" in change.detail and "管理员" in change.detail and "没有权限" in change.detail
    assert "查看用户" in listing.detail
    assert (change.target, change.detail) != (listing.target, listing.detail)


def test_a_refusal_elsewhere_names_the_method(team):
    """A facade method with no Chinese name yet is named as it is called (update_settings), never left out."""
    with pytest.raises(PermissionDenied):
        team.update_settings(actor=HR, top_k=3)
    assert "update_settings" in _refused(team)[0].detail


def test_a_role_change_reads_old_and_new_in_chinese(team):
    team.set_user_role("li", "employee", actor=ADMIN)
    team.set_user_role("zhao", "hr", ["finance"], actor=ADMIN)
    rows = team.audit_entries(actor=ADMIN, action="user.role")
    assert [e.detail for e in rows] == ["角色 员工 → HR；受众 — → finance", "角色 HR → 员工；受众 — → —"]


def test_a_refusal_reads_in_plain_words_without_internal_names(team):
    """Review 181: a call refused inside a helper was recorded as `_forget_scope`, and every permission as its code
    (memories.all): the row says what the permission allows, in Chinese, and the target is no code either."""
    with pytest.raises(PermissionDenied):
        team.forget_memories(3, actor=HR)
    row = _refused(team)[0]
    assert "_forget_scope" not in row.detail and "memories.all" not in row.detail + row.target
    assert "管理所有人的记忆" in row.detail
