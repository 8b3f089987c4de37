"""`backup DEST`, `restore SRC`, `doctor`: keep the data dir safe from the command line.

None of them opens the assistant (no model load, no Chroma): `backup` runs while
the app keeps serving, and `doctor` and `restore` work on a data dir too damaged
to open. Each store problem is one Chinese line naming the file and what to do.
The CLI acts as the data dir's owner (`LOCAL_ADMIN`, as `act_as_local_administrator`
does for the other commands), also on a team data dir.
"""

from __future__ import annotations

import argparse
import sys

from ..facade.access import LOCAL_ADMIN
from ..settings import Settings
from .output import print_json, say


def register(commands) -> None:
    """Add the maintenance commands to the main parser."""
    backup_parser = commands.add_parser("backup", help="备份整个数据目录（应用运行时也可以）")
    backup_parser.add_argument("dest", metavar="备份目录", help="新的（或空的）备份目录")
    backup_parser.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    backup_parser.set_defaults(handler=backup, without_store=True)
    restore_parser = commands.add_parser("restore", help="用备份替换数据目录（先停止应用；原目录改名保留）")
    restore_parser.add_argument("source", metavar="备份目录", help="backup 生成的备份目录")
    restore_parser.add_argument("--allow-no-accounts", action="store_true",
                                help="备份里没有账户而当前有时也恢复（恢复后不再需要登录，任何人都以本机管理员身份操作）")
    restore_parser.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    restore_parser.set_defaults(handler=restore, without_store=True)
    doctor_parser = commands.add_parser("doctor", help="检查数据目录里的每个文件，说明问题和修复办法")
    doctor_parser.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    doctor_parser.set_defaults(handler=doctor, without_store=True)


def _settings(args: argparse.Namespace) -> Settings:
    return Settings.from_env(data_dir=args.data_dir)


def _facade():
    from ..assistant import Assistant

    return Assistant


def backup(args: argparse.Namespace, _assistant=None) -> int:
    """Copy every store file with SQLite's online backup, plus the vector store."""
    report = _facade().backup_data_dir(_settings(args).data_dir, args.dest, actor=LOCAL_ADMIN,
                                       waiting=lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        print_json(report.to_dict())
    else:
        say(f"已备份到 {report.path}：{report.documents} 份文档、{report.chunks} 块、{report.memories} 条记忆，共 {len(report.files)} 个文件")
        for line in report.notices:  # a damaged cache left out: the restored store rebuilds it
            say(f"注意：{line}")
    return 0


def restore(args: argparse.Namespace, _assistant=None) -> int:
    """Replace the data dir with a verified backup."""
    report = _facade().restore_data_dir(args.source, _settings(args).data_dir, actor=LOCAL_ADMIN,
                                        allow_no_accounts=args.allow_no_accounts)
    if args.json:
        print_json(report.to_dict())
    else:
        say(f"已从 {args.source} 恢复到 {report.path}：{report.documents} 份文档、{report.chunks} 块、{report.memories} 条记忆")
        if report.previous and report.left_out:  # the only copy of what the backup lacks is in the old one
            say(f"原来的数据目录已改名保留为 {report.previous}：备份里没有的 {'、'.join(report.left_out)} 只在那里，"
                f"请先运行 python -m rag_core --data-dir {report.previous} doctor 查看修复办法，不要删除它")
        elif report.previous:
            say(f"原来的数据目录已改名保留为 {report.previous}，确认无误后可以删除")
        if report.sessions_ended:
            say(f"备份里的 {report.sessions_ended} 个登录已全部结束：每个人需要重新登录")
        for line in report.notices:  # an older backup: its files other than stores could not be checked
            say(f"注意：{line}")
    return 0


def doctor(args: argparse.Namespace, _assistant=None) -> int:
    """Check every file; exit 1 when something needs the user's action."""
    settings = _settings(args)
    checks = _facade().doctor_data_dir(settings.data_dir, embedded_chroma=not settings.chroma_host,
                                       actor=LOCAL_ADMIN)
    if args.json:
        print_json({"data_dir": str(settings.data_dir), "checks": [c.to_dict() for c in checks]})
    else:
        for check in checks:
            say(("正常  " if check.ok else "有问题 ") + check.line())
    return 0 if all(check.ok for check in checks) else 1
