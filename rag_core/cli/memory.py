"""`python -m rag_core memory …`: add, search, list, delete, forget, purge long-term memories.

Talks only to the Assistant facade (remember / recall / list_memories / …), never to
the store, so the CLI, the app and the tests exercise the same code path. Listings
print `{"memories": [...]}` as UTF-8 JSON with `--json`; messages are Chinese.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..errors import RagError
from ..memory.scoring import KINDS
from ..text.pii import redact_text
from ..types import MEMORY_KIND_NAMES, MemoryHit, Principal
from .output import field, print_json, say


def _importance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"重要性必须是数字：{text}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"重要性必须在 0 到 1 之间：{text}")
    return value


def _timestamp(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"时间格式应为 ISO 8601，例如 2025-03-01 或 2025-03-01T09:00:00+08:00：{text}") from None


def _keep(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"保留条数必须是整数：{text}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("保留条数不能为负数")
    return value


def register(commands) -> None:
    """Add the `memory` command and its sub-commands to the main parser."""
    mem = commands.add_parser("memory", help="用户长期记忆：添加、检索、列出、删除、遗忘、清除")
    sub = mem.add_subparsers(dest="memory_command", required=True, metavar="命令")

    add = sub.add_parser("add", help="添加一条记忆（近义重复会强化已有记忆，矛盾会替换旧记忆）")
    add.add_argument("text", metavar="内容", help="要记住的一句话，例如 我常驻杭州")
    add.add_argument("--user", required=True, metavar="用户", help="记在谁名下")
    add.add_argument("--kind", choices=KINDS, default="profile", help="种类：profile 个人信息（默认），preference 偏好，episode 经历/事件，interaction 问答记录")
    add.add_argument("--importance", type=_importance, default=None, help="0–1，默认按类型")
    add.add_argument("--created-at", type=_timestamp, default=None, help="导入历史记忆时的时间（ISO 8601；不写时区时按设置里的时区读）")
    add.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    add.set_defaults(handler=_guarded(add_memory))

    search = sub.add_parser("search", help="按问题召回记忆（无关的问题不返回任何记忆）")
    search.add_argument("query", metavar="问题", help="用哪句话去找相关的记忆")
    search.add_argument("--user", required=True, metavar="用户", help="找谁的记忆")
    search.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    search.set_defaults(handler=_guarded(search_memories), reads_only=True)

    lst = sub.add_parser("list", help="列出用户的全部记忆")
    lst.add_argument("--user", required=True, metavar="用户", help="列出谁的记忆")
    lst.add_argument("--query", default=None, help="按与该问题的相关度排序")
    lst.add_argument("--kind", choices=KINDS, default=None, help="只列某一种（默认全部）")
    lst.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    lst.set_defaults(handler=_guarded(list_memories), reads_only=True)

    delete = sub.add_parser("delete", help="删除记忆（软删除，保留期后彻底清除）")
    delete.add_argument("ids", nargs="+", metavar="编号", help="要删除的记忆编号（memory list 列出的），可以多个")
    delete.add_argument("--user", default=None, help="以该用户身份删除：别人的记忆编号会被拒绝")
    delete.set_defaults(handler=_guarded(delete_memories))

    imp = sub.add_parser("set-importance", help="修改一条记忆的重要性")
    imp.add_argument("id", metavar="编号", help="记忆编号（memory list 列出的）")
    imp.add_argument("importance", type=_importance, metavar="重要度", help="0 到 1 之间的数字，例如 0.8")
    imp.add_argument("--user", default=None, help="以该用户身份修改：别人的记忆编号会被拒绝")
    imp.set_defaults(handler=_guarded(set_importance))

    forget = sub.add_parser("forget", help="按 重要性×新鲜度 只保留前 N 条")
    forget.add_argument("--keep", type=_keep, required=True, metavar="条数", help="每个用户按 重要性×新鲜度 保留前几条，其余的遗忘")
    forget.add_argument("--user", default=None, help="不指定则对每个用户分别执行")
    forget.add_argument("--dry-run", action="store_true", help="只列出将被遗忘的记忆")
    forget.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    forget.set_defaults(handler=_guarded(forget_memories))

    purge = sub.add_parser("purge", help="彻底删除某用户的全部记忆（被遗忘权）")
    purge.add_argument("--user", required=True, metavar="用户", help="删除谁的全部记忆")
    purge.set_defaults(handler=_guarded(purge_memories))




def _print_hits(hits: list[MemoryHit], as_json: bool, extra: dict[str, Any], empty: str) -> None:
    if as_json:
        print_json({**extra, "memories": [h.to_dict() for h in hits]})
        return
    if not hits:
        say(empty)
        return
    for h in hits:
        say(
            f"{h.id}  得分 {h.score:.3f}（相关 {h.relevance:.2f} × 重要 {h.importance:.2f} × 新鲜 {h.freshness:.2f}）"
            f"［{MEMORY_KIND_NAMES.get(h.kind, h.kind)}］{field(h.content)}"
        )


_ACTIONS = {"added": "已添加记忆", "strengthened": "已有相同记忆，已强化", "replaced": "已替换与之矛盾的旧记忆，新记忆",
            "trimmed": "已从旧记忆里去掉与之矛盾的一句（其余保留），新记忆"}


def _guarded(handler: Callable[[argparse.Namespace, Any], int]) -> Callable[[argparse.Namespace, Any], int]:
    """A refused memory action prints its Chinese reason and exits 1 instead of a traceback."""

    def run(args: argparse.Namespace, assistant) -> int:
        try:
            return handler(args, assistant)
        except RagError as exc:
            say(f"错误：{exc}", err=True)
            return 1

    run.__doc__ = handler.__doc__
    return run


def _as_user(args: argparse.Namespace) -> Principal | None:
    """`--user NAME`: act as that employee (their own memories only); without it, as the local administrator."""
    return Principal(user=args.user, role="employee") if getattr(args, "user", None) else None


def add_memory(args: argparse.Namespace, assistant) -> int:
    """Store one memory (a near duplicate strengthens, a contradiction replaces)."""
    memory_id, action = assistant.remember(
        args.user, args.text, kind=args.kind, importance=args.importance, created_at=args.created_at
    )
    if args.json:
        print_json({"id": memory_id, "action": action})
    else:
        say(f"{_ACTIONS.get(action, action)}：{memory_id}")
    return 0


def search_memories(args: argparse.Namespace, assistant) -> int:
    """The memories that pass the threshold for a question."""
    hits = assistant.recall(args.user, args.query, touch=False)  # someone looking: not the person using them
    # echoed as the engine searched it: a phone number typed into the question is not printed back
    _print_hits(hits, args.json, {"user": redact_text(args.user), "query": redact_text(args.query)}, "（没有相关记忆）")
    return 0


def list_memories(args: argparse.Namespace, assistant) -> int:
    """Every memory of one user."""
    hits = assistant.list_memories(args.user, query=args.query, kind=args.kind)
    _print_hits(hits, args.json, {"user": redact_text(args.user)}, "（该用户没有记忆）")
    return 0


def delete_memories(args: argparse.Namespace, assistant) -> int:
    """Soft-delete memories by id; exit 1 unless every id named was deleted (a mistyped one is named, not skipped)."""
    ids = [m for m in dict.fromkeys(args.ids) if m]  # as the store reads them: each once, blanks ignored
    count, missing = _delete_each(args, assistant, ids)
    if count == 0:
        say(f"错误：找不到可删除的记忆：{'、'.join(args.ids)}", err=True)
        return 1
    say(f"已删除 {count} 条记忆（保留期内可审计，之后彻底清除）")
    if count < len(ids):
        named = f"：{'、'.join(missing)}" if missing else ""
        say(f"错误：另有 {len(ids) - count} 条找不到（已删除或编号有误），没有删除{named}", err=True)
        return 1
    return 0


def _delete_each(args: argparse.Namespace, assistant, ids: list[str]) -> tuple[int, list[str]]:
    """Delete `ids`: how many went, and the ids not found. As the local administrator each id is its own call (its
    own audit row and outcome); with --user one call, which the facade refuses whole when one id is someone else's,
    and the ids not found are those the person's own list did not hold just before."""
    if not getattr(args, "user", None):
        missing = [m for m in ids if assistant.delete_memories([m]) == 0]
        return len(ids) - len(missing), missing
    own = {hit.id for hit in assistant.list_memories(args.user, actor=_as_user(args))} if len(ids) > 1 else set()
    return assistant.delete_memories(ids, actor=_as_user(args)), [m for m in ids if m not in own]


def set_importance(args: argparse.Namespace, assistant) -> int:
    """Change one memory's importance."""
    assistant.update_memory_importance(args.id, args.importance, actor=_as_user(args))
    say(f"已将 {args.id} 的重要性设为 {args.importance:.2f}")
    return 0


def forget_memories(args: argparse.Namespace, assistant) -> int:
    """Keep the best N memories per user (or preview what would go)."""
    if args.dry_run:
        hits = assistant.preview_forget(args.keep, user=args.user)
        _print_hits(hits, args.json, {"keep": args.keep, "dry_run": True}, "（没有需要遗忘的记忆）")
        return 0
    count = assistant.forget_memories(args.keep, user=args.user)
    if args.json:
        print_json({"keep": args.keep, "user": args.user, "forgotten": count})
    else:
        say(f"已遗忘 {count} 条记忆（每位用户保留 {args.keep} 条）")
    return 0


def purge_memories(args: argparse.Namespace, assistant) -> int:
    """Delete every memory of one user for good (right to be forgotten)."""
    done = assistant.purge_memories(args.user)
    say(f"已彻底删除用户 {redact_text(args.user)} 的 {done.count} 条记忆及其历史")  # a name kept before names were checked
    if done.turns_failed:
        say("但对话记录读写出错，对话里用到的这些记忆未能删除：请修复或删除对话记录（conversations.sqlite3）后再清空一次。",
            err=True)
        return 1
    return 0
