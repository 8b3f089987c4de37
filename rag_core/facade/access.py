"""Who may do what: the permission table the facade checks on every action.

Pages hide what a person cannot use, but that is comfort, not control: each
facade method calls `require` with the acting `Principal`, so a direct call,
the CLI or a crafted page URL meets the same refusal.
"""

from __future__ import annotations

from ..errors import PermissionDenied
from ..types import ROLE_NAMES, ROLES, Principal

# permission -> lowest role that holds it (roles are ordered employee < hr < admin)
PERMISSIONS: dict[str, str] = {
    "ask": "employee",  # chat: search, answers, own conversations
    "memories.own": "employee",  # one's own long-term memories
    "feedback.give": "employee",  # rate an answer
    "documents.manage": "hr",  # list, upload, delete, preview, version history
    "retrieval.test": "hr",  # retrieval test page and eval
    "insights": "hr",  # gaps, feedback review, standard answers, usage
    "thesaurus": "hr",  # add one colloquial → policy wording entry (the gap page's 添加同义词)
    "memories.all": "admin",  # act on every user's memories at once
    "settings": "admin",  # engine settings and the whole thesaurus editor
    "users": "admin",  # accounts
    "audit": "admin",  # the audit trail
    "maintenance": "admin",  # re-index, vector checks, backup, restore, doctor
}

PERMISSION_NAMES: dict[str, str] = {
    "ask": "提问",
    "memories.own": "管理自己的记忆",
    "feedback.give": "评价回答",
    "documents.manage": "管理制度文档",
    "retrieval.test": "检索测试",
    "insights": "查看知识缺口与反馈",
    "thesaurus": "添加同义词",
    "memories.all": "管理所有人的记忆",
    "settings": "修改设置",
    "users": "管理用户",
    "audit": "查看审计日志",
    "maintenance": "维护数据",
}

# The person at the machine on the desktop default (no accounts yet) and the CLI.
LOCAL_ADMIN = Principal(user="local", role="admin")


def allowed(actor: Principal, permission: str) -> bool:
    """True when `actor`'s role reaches the permission's lowest role."""
    lowest = PERMISSIONS[permission]  # KeyError: a typo in a permission name must not pass silently
    if actor.role not in ROLES:
        return False
    return ROLES.index(actor.role) >= ROLES.index(lowest)


def require(actor: Principal, permission: str) -> Principal:
    """Return `actor` when allowed, else raise `PermissionDenied` with a Chinese reason."""
    if not allowed(actor, permission):
        role = ROLE_NAMES.get(actor.role, actor.role)
        raise PermissionDenied(f"没有权限：{role}“{actor.user}”不能{PERMISSION_NAMES[permission]}")
    return actor


def require_owner(actor: Principal, owner: str, permission: str = "memories.own") -> None:
    """Refuse acting on another person's record unless the actor may act on everyone's."""
    require(actor, permission)
    if owner != actor.user and not allowed(actor, "memories.all"):
        raise PermissionDenied("没有权限：这条记录属于其他用户")
