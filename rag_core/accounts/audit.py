"""The audit trail: who did what to which thing, when, and whether it was allowed.

Append-only by construction: SQLite triggers abort every UPDATE and DELETE on the
table, so neither a bug in this program nor a page can rewrite history (someone
with the file itself can, which SECURITY.md says). Questions are never written
here; the trail names actions and their targets only.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from ..storage.new_store import create_store
from ..storage.row_ids import SQLITE_MAX_INT  # a larger LIMIT is no SQLite integer ("datatype mismatch")
from ..types import AuditEntry
from .transaction import one_write

# One statement each: they run one by one inside `AuditLog._write` (executescript would COMMIT first).
_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    role TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
)""",
    "CREATE INDEX IF NOT EXISTS audit_at ON audit (at)",
    """CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END""",
)
_SCHEMA_NAMES = ("audit", "audit_at", "audit_no_update", "audit_no_delete")

# Every action the trail records, as the audit page and its CSV name it (one table: the page reads it through
# the facade, `Assistant.audit_names`). Actions on someone else's records are named as such.
ACTION_NAMES: dict[str, str] = {
    "login": "登录", "logout": "退出登录", "password.change": "修改本人密码", "document.upload": "上传文档", "document.delete": "删除文档",
    "document.reindex": "重新切块", "settings.change": "修改设置", "thesaurus.change": "修改词表",
    "memory.add": "为他人添加记忆", "memory.recall": "提问时读取他人记忆", "memory.list": "查看他人记忆",
    "memory.export": "导出他人记忆",
    "memory.delete": "删除记忆", "memory.importance": "修改记忆重要性", "memory.edit": "修改记忆内容",
    "memory.forget": "遗忘记忆", "memory.forget_preview": "预览将遗忘的他人记忆", "memory.purge": "清除用户记忆",
    "ask.as": "以他人身份提问",
    "user.add": "新增用户", "user.disable": "停用用户", "user.enable": "启用用户", "user.role": "修改角色",
    "user.email": "修改单点登录邮箱",
    "user.password": "重置密码", "conversation.list": "查看他人对话列表", "conversation.read": "查看他人对话",
    "conversation.export": "导出他人对话", "conversation.rename": "重命名他人对话", "conversation.delete": "删除他人对话",
    "conversation.rate": "评价他人对话", "conversation.undo": "撤销他人记忆", "standard.add": "添加标准答复",
    "standard.delete": "删除标准答复", "standard.release": "恢复标准答复",
    "feedback.give": "代为评价或撤回评价",
    "backup": "备份", "restore": "恢复备份", "refused": "被拒绝的操作",
}
OUTCOME_NAMES: dict[str, str] = {"ok": "成功", "failed": "失败", "locked": "已锁定", "refused": "拒绝"}
# The trail's reserved actors as people read them: the desktop default and the first start's import of the samples
ACTOR_NAMES: dict[str, str] = {"local": "本机用户", "system": "系统（示例制度导入）"}


def stored_actor(typed: str) -> str:
    """The actor the trail stores for a name as shown (本机用户 → local; 系统 finds 系统（示例制度导入） too)."""
    typed = typed.strip()
    return next((user for user, shown in ACTOR_NAMES.items() if typed in (shown, shown.split("（")[0])), typed)


def action_code(typed: str) -> str | None:
    """The stored action for a code or its Chinese name (上传文档 → document.upload); None for neither."""
    typed = typed.strip()
    if typed in ACTION_NAMES:
        return typed
    return next((code for code, name in ACTION_NAMES.items() if typed == name), None)


def _storable(text: str) -> str:
    """`text` as SQLite can store it: a lone surrogate (an id typed on a mis-decoded command line, named in a
    refusal) becomes its visible escape instead of failing the row, and with it the refusal it records."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class AuditLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        create_store(self.path, ";\n".join(_SCHEMA) + ";")  # whole or not at all (`storage.new_store`)
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._lock = threading.Lock()
        have = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE name IN (?, ?, ?, ?)", _SCHEMA_NAMES)}
        if have != set(_SCHEMA_NAMES):  # an existing trail is only read on opening: no write lock taken
            with self._write():
                for statement in _SCHEMA:
                    self._db.execute(statement)

    def _write(self):
        """Every write's one transaction (`transaction.one_write`: write lock first, rolled back on any error)."""
        return one_write(self._db, self._lock)

    def record(self, actor: str, role: str, action: str, target: str = "", outcome: str = "ok", detail: str = "") -> int:
        """Append one row; returns its id. A row whose write fails is not kept: the error says so at once."""
        at = datetime.now(UTC).isoformat(timespec="seconds")
        with self._write():
            cur = self._db.execute(
                "INSERT INTO audit (at, actor, role, action, target, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (at, *map(_storable, (actor, role, action, target[:300], outcome, detail[:1000]))),
            )
        return int(cur.lastrowid or 0)

    def entries(
        self,
        *,
        since: str | None = None,
        until: str | None = None,
        actor: str | None = None,
        action: str | None = None,
        outcome: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> AuditRows:
        """Rows newest first; `since`/`until` are ISO dates or times (UTC), inclusive of `since`.

        `limit` (None: every row) is bound as a parameter, capped at SQLite's largest integer; below 1 it asks for
        no rows (it read as "every row" before, and a number past SQLite's range as a damaged store). `offset`
        skips that many of the newest rows: with `limit`, one page of a trail too long to load whole (the audit
        page reads 100,000 rows a month). The result's `total` counts every row the filters match, so a page
        can say 共 N 条 without loading them."""
        where, matching = _filters(since, until, actor, action, outcome)
        params = list(matching)
        sql = "SELECT id, at, actor, role, action, target, outcome, detail FROM audit" + where + " ORDER BY id DESC"
        offset = min(max(int(offset), 0), SQLITE_MAX_INT)
        paged = limit is not None or offset > 0
        if paged:
            sql += " LIMIT ? OFFSET ?"  # -1: no limit, only the offset
            params += [-1 if limit is None else min(int(limit), SQLITE_MAX_INT), offset]
        with self._lock:
            rows = [] if limit is not None and limit < 1 else self._db.execute(sql, params).fetchall()
            total = self._count(where, matching) if paged else len(rows)
        return AuditRows([AuditEntry(*row) for row in rows], total=total)

    def count(
        self,
        *,
        since: str | None = None,
        until: str | None = None,
        actor: str | None = None,
        action: str | None = None,
        outcome: str | None = None,
    ) -> int:
        """How many rows the filters (those of `entries`) match; every row without filters."""
        where, params = _filters(since, until, actor, action, outcome)
        with self._lock:
            return self._count(where, params)

    def _count(self, where: str, params: list[str | int]) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM audit" + where, params).fetchone()[0])


class AuditRows(list[AuditEntry]):
    """A page of the trail (a plain list of its rows) that also knows how many rows match in all: the facade
    passes the trail's result on as it is, so the page gets its 共 N 条 from the same call."""

    def __init__(self, rows: list[AuditEntry], *, total: int) -> None:
        super().__init__(rows)
        self.total = total


def _filters(
    since: str | None, until: str | None, actor: str | None, action: str | None, outcome: str | None
) -> tuple[str, list[str | int]]:
    """The WHERE clause (with its leading space, "" for none) and its parameters; empty filters are left out."""
    where: list[str] = []
    params: list[str | int] = []
    for column, op, value in (("at", ">=", since), ("at", "<", until), ("actor", "=", actor),
                              ("action", "=", action), ("outcome", "=", outcome)):
        if value:
            where.append(f"{column} {op} ?")
            params.append(value)
    return (" WHERE " + " AND ".join(where) if where else ""), params
