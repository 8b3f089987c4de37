"""Who may do what: the permission table the facade checks on every action.

Pages hide what a person cannot use, but that is comfort, not control: each
facade method calls `require` with the acting `Principal`, so a direct call,
the CLI or a crafted page URL meets the same refusal.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from ..accounts.names import is_reserved
from ..documents.audience_names import audience_label
from ..errors import PermissionDenied, StoreDamaged
from ..types import ROLE_NAMES, ROLES, Principal
from .accounts_busy import accounts_busy

SYSTEM = Principal(user="system", role="admin")  # first-start indexing of the bundled samples (`facade.samples`)

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


# Principals the engine itself made from an account row for one call (the reader of a turn an administrator asks
# as someone: `AskerActions._asker`), by identity: a page's principal equal to one of them is still checked.
_ISSUED: weakref.WeakValueDictionary[int, Principal] = weakref.WeakValueDictionary()


def issued_by_engine(principal: Principal) -> Principal:
    """Mark `principal` as made by the engine for the call at hand (`as_it_stands` lets it act as it is: an
    administrator may ask as a disabled person, who then reads as a plain employee)."""
    _ISSUED[id(principal)] = principal
    return principal


def as_it_stands(accounts: Callable[[], Any], actor: Principal, *, local_admin_process: bool = False) -> Principal:
    """`actor` when the account it names still grants what it carries, else `PermissionDenied` (team mode).

    A page keeps the principal from its login, and a tab's button callback runs before the login gate looks at the
    session again: an account disabled, or given another role or audiences, since then acted once more with its old
    rights. So every action reads the account it names (one indexed row): enabled, not reserved, and holding the
    principal's role and audiences (as labels), as `session_principal` would give them now. A principal naming no account was
    issued by no login, so nothing of it can have gone stale (accounts are never deleted): the desktop's person at
    the machine, the CLI's (`act_as_local_administrator`: the data dir's owner names whom it acts for), the engine's
    own (`SYSTEM`), a library caller's. A desktop tab still open after the first account was made is the pages'
    to end (`ui.state.actor`). An account file that cannot be read leaves nothing to compare with: the pages stop
    at the login gate (it cannot read a session either), and the library answers named callers as before.
    """
    if local_admin_process or actor is SYSTEM or _ISSUED.get(id(actor)) is actor:
        return actor
    try:
        with accounts_busy():
            account = accounts().get(actor.user)
    except StoreDamaged:
        return actor
    if account is None:
        return actor
    if account.disabled or is_reserved(account.name):  # as `authenticate` refuses a reserved one
        raise PermissionDenied(f"没有权限：账户“{actor.user}”已停用，请重新登录或联系管理员")
    labels = [{audience_label(a) for a in held} for held in (account.audiences, actor.audiences)]
    if account.role == actor.role and labels[0] == labels[1]:  # in any order, Managers (stored by an older version) as managers
        return actor
    now = ROLE_NAMES.get(account.role, account.role)
    raise PermissionDenied(f"没有权限：账户“{actor.user}”的角色或受众已被管理员修改（现在是{now}），请重新登录")
