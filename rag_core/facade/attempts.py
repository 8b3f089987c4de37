"""What a refused call attempted, for its audit row.

Why: a refusal recorded only the permission it lacked (target 'users'), so an HR user's try at making
themselves an administrator read the same as opening the users list. The row names the operation
(in Chinese where it has a name, else as the facade method is called) and the account or record it aimed at.
"""

from __future__ import annotations

from ..accounts.audit import ACTION_NAMES
from .access import PERMISSION_NAMES

# facade methods refused before they name an audit action of their own
_METHOD_NAMES: dict[str, str] = {
    "list_users": "查看用户列表", "audit_entries": "查看审计记录", "add_user": "新增用户",
    "set_user_disabled": "停用或启用用户", "set_user_role": "修改角色", "reset_user_password": "重置密码",
    "change_own_password": "修改本人密码",
}


def refusal_row(permission: str, attempt: str, target: str, reason: str) -> tuple[str, str]:
    """The (target, detail) of a refused call's audit row; `attempt` is an audit action, a method name or text.

    Plain words first: an operation without a Chinese name is said as what its permission allows, with a public
    method's name after it in brackets for whoever traces it; an internal helper's name (`_forget_scope`) says
    nothing to a reader and is left out."""
    plain = PERMISSION_NAMES.get(permission, permission)
    named = ACTION_NAMES.get(attempt) or _METHOD_NAMES.get(attempt)
    if not named:
        method = attempt.isidentifier() and not attempt.startswith("_")
        named = f"{plain}（{attempt}）" if method else (attempt if attempt and not attempt.isidentifier() else plain)
    return target or plain, f"尝试：{named}（需要权限：{plain}）；{reason}"
