"""`python -m rag_core audit [--since DATE] [--json]`: the append-only audit trail, newest first.

The CLI acts as the local administrator of the data dir it opens.
"""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime

from .output import field, print_json, say


def _day_or_time(text: str) -> str:
    """The stored form of a bound: the trail holds UTC ISO text and compares it as text, so a time with an
    offset (+08:00) is turned into UTC first; a time without one is already UTC."""
    try:
        if len(text) == 10:
            return date.fromisoformat(text).isoformat()
        moment = datetime.fromisoformat(text)
        return (moment.astimezone(UTC) if moment.tzinfo else moment).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"日期格式应为 YYYY-MM-DD 或 ISO 8601：{text}") from None
    except OverflowError:  # 0001-01-01T00:00:00+08:00 has no UTC form (it falls before year 1)
        raise argparse.ArgumentTypeError(
            f"时间超出范围：{text} 换算成 UTC 后早于公元 1 年或晚于 9999 年，请给出一个实际的日期") from None


MAX_LIMIT = 1_000_000


def _row_limit(text: str) -> int:
    """--limit: a whole number of rows from 1 to MAX_LIMIT. 0 and -1 printed every row and a 20-digit number
    reached SQLite as a damaged-store error; leaving --limit out is how to list every row."""
    try:
        count = int(text)
    except ValueError:  # also a number too long to convert at all
        count = 0
    if not 1 <= count <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"条数应为 1 到 {MAX_LIMIT} 之间的整数（不写 --limit 则列出全部）：{text[:40]}")
    return count


def register(commands) -> None:
    audit = commands.add_parser(
        "audit", help="审计日志：登录、上传、删除、设置、账户变更、被拒绝的操作",
        description="审计日志（只追加）。命令行以本机管理员身份执行。",
    )
    audit.add_argument("--since", type=_day_or_time, default=None, help="起始日期（含，UTC）")
    audit.add_argument("--until", type=_day_or_time, default=None, help="截止日期（不含，UTC）")
    audit.add_argument("--user", default=None, help="只看某个人的操作")
    audit.add_argument("--action", default=None, help="只看某类操作，例如 login、document.delete、refused")
    audit.add_argument("--limit", type=_row_limit, default=None, help=f"最多列出多少条（1–{MAX_LIMIT}，默认全部）")
    audit.add_argument("--json", action="store_true")
    audit.set_defaults(handler=show_audit)


def show_audit(args: argparse.Namespace, assistant) -> int:
    rows = assistant.audit_entries(since=args.since, until=args.until, user=args.user, action=args.action, limit=args.limit)
    if args.json:
        print_json({"entries": [r.to_dict() for r in rows]})
        return 0
    if not rows:
        say("（没有符合条件的审计记录）")
    for r in rows:
        shown = (field(v) for v in (r.at, f"{r.actor}({r.role or '—'})", r.action, r.target, r.outcome, r.detail))
        say("  ".join(shown))  # each field on the record's one line: a newline in a name cannot forge a row
    return 0
