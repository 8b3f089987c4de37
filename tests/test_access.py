"""The permission table: who may do what, checked in the facade."""

from __future__ import annotations

import pytest

from rag_core import PermissionDenied, Principal
from rag_core.facade.access import LOCAL_ADMIN, PERMISSIONS, allowed, require, require_owner

EMPLOYEE = Principal("zhang", "employee")
HR = Principal("li", "hr")
ADMIN = Principal("wang", "admin")


def test_roles_are_ordered_employee_hr_admin():
    assert allowed(EMPLOYEE, "ask") and allowed(HR, "ask") and allowed(ADMIN, "ask")
    assert not allowed(EMPLOYEE, "documents.manage") and allowed(HR, "documents.manage")
    assert not allowed(HR, "settings") and allowed(ADMIN, "settings")


def test_an_unknown_role_holds_nothing():
    odd = Principal("x", "superuser")
    assert not any(allowed(odd, p) for p in PERMISSIONS)


def test_refusal_is_a_chinese_sentence():
    with pytest.raises(PermissionDenied, match="没有权限"):
        require(EMPLOYEE, "users")


def test_a_misspelt_permission_fails_loudly():
    with pytest.raises(KeyError):
        allowed(ADMIN, "user")


def test_another_persons_record_is_refused_unless_admin():
    require_owner(EMPLOYEE, "zhang")
    with pytest.raises(PermissionDenied):
        require_owner(EMPLOYEE, "li")
    with pytest.raises(PermissionDenied):
        require_owner(HR, "zhang")
    require_owner(ADMIN, "zhang")


def test_readable_audiences_follow_the_role():
    assert EMPLOYEE.readable == {"all"}
    assert Principal("a", "employee", ("managers",)).readable == {"all", "managers"}
    assert HR.readable == {"all", "hr"}
    assert ADMIN.readable is None
    assert LOCAL_ADMIN.role == "admin"
