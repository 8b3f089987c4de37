"""`python -m rag_core users …`: accounts for team mode (add, list, disable, enable, reset-password, set-email).

The CLI acts as the local administrator of the data dir it opens (whoever can run
it can read the files anyway). Passwords are read from stdin, twice, never from
argv (argv is visible to every user of the machine in `ps`); on a terminal they
are not echoed. `users list --json` never prints a hash.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from datetime import UTC, datetime, tzinfo

from ..errors import AccountError
from ..memory.created import office_zone
from ..types import ROLE_NAMES, ROLES, Account
from .output import field, print_json, say

LOCAL_NOTE = "命令行以本机管理员身份执行（能运行它的人本来就能读取数据目录）。"


def register(commands) -> None:
    users = commands.add_parser(
        "users", help="账户管理（第一个账户建立后，网页必须登录）", description=f"账户管理。{LOCAL_NOTE}"
    )
    sub = users.add_subparsers(dest="users_command", required=True, metavar="命令")

    add = sub.add_parser("add", help="新建账户（密码从标准输入读取两次）")
    add.add_argument("name", metavar="用户名", help="新账户的登录名")
    add.add_argument("--role", choices=ROLES, required=True, help="employee=员工，hr=HR，admin=管理员")
    add.add_argument("--audience", action="append", default=[], metavar="受众", help="额外可读的受众标签，可重复")
    add.add_argument("--email", default="", help="单点登录时用来对应账户的邮箱")
    add.set_defaults(handler=add_user)

    lst = sub.add_parser("list", help="列出账户（不含密码哈希）")
    lst.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    lst.set_defaults(handler=list_users, reads_only=True)

    for name, text, disabled in (("disable", "停用账户（立即结束其会话）", True), ("enable", "重新启用账户", False)):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("name", metavar="用户名", help="哪个账户")
        cmd.set_defaults(handler=set_disabled, disabled=disabled)

    reset = sub.add_parser("reset-password", help="重置密码并解除锁定（密码从标准输入读取两次）")
    reset.add_argument("name", metavar="用户名", help="给哪个账户设新密码（新密码从标准输入读两次）")
    reset.set_defaults(handler=reset_password)

    email = sub.add_parser("set-email", help="设置、修改或清除单点登录邮箱（该账户的会话随即结束）")
    email.add_argument("name", metavar="用户名", help="哪个账户")
    email.add_argument("address", nargs="?", default=None, metavar="邮箱", help="新的邮箱；清除请用 --clear")
    email.add_argument("--clear", action="store_true", help="清除邮箱（之后不能再用单点登录进入这个账户）")
    email.set_defaults(handler=set_email)


def read_new_password() -> str:
    """Twice from stdin (hidden on a terminal); the two must match. No stdin at all (a service, `<&-`) is one
    Chinese line, not a traceback (review 392 #1)."""
    if sys.stdin is None or sys.stdin.closed:
        raise AccountError("没有可以读取密码的标准输入：请在终端里运行，或用管道输入两行相同的新密码")
    if sys.stdin.isatty():
        first, second = getpass.getpass("新密码："), getpass.getpass("再输入一次：")
    else:
        first, second = sys.stdin.readline().rstrip("\r\n"), sys.stdin.readline().rstrip("\r\n")
    if first != second:
        raise AccountError("两次输入的密码不一致")
    return first


def add_user(args: argparse.Namespace, assistant) -> int:
    """Create an account; the first one switches the web app to team mode (login required)."""
    first = not assistant.team_mode
    account = assistant.add_user(args.name, args.role, read_new_password(), args.audience, args.email)
    say(f"已新建账户：{account.name}（{ROLE_NAMES.get(account.role, account.role)}）")
    if first:
        say("这是第一个账户：从现在起网页需要登录。")
    return 0


def _state(account: Account, zone: tzinfo, now: datetime | None = None) -> str:
    """正常 / 已停用 / 已锁定（至 local time）: a lock that ran out is no lock (the next login unlocks it)."""
    if account.disabled:
        return "已停用"
    try:
        until = datetime.fromisoformat(account.locked_until) if account.locked_until else None
    except ValueError:
        until = None
    if until is not None and until.tzinfo is None:
        until = until.replace(tzinfo=UTC)  # the engine writes UTC
    if until is not None and until > (now or datetime.now(UTC)):
        return f"已锁定（至 {until.astimezone(zone):%Y-%m-%d %H:%M}）"
    return "正常"


def list_users(args: argparse.Namespace, assistant) -> int:
    accounts = assistant.list_users()
    if args.json:
        print_json({"users": [a.to_dict() for a in accounts]})
        return 0
    zone = office_zone(assistant.settings.timezone)  # a bad value: UTC (the settings check reports it)
    if not accounts:
        say("（还没有账户：桌面模式，网页不需要登录）")
    for a in accounts:
        state = assistant.RESERVED_STATE if assistant.name_reserved(a.name) else _state(a, zone)  # never logs in
        readers = assistant.audience_names(tuple(a.audiences)) if a.audiences else "—"
        say(f"{field(a.name)}  {ROLE_NAMES.get(a.role, a.role)}  受众 {field(readers)}  {field(a.email or '')}  {state}")
    return 0


def set_disabled(args: argparse.Namespace, assistant) -> int:
    account = assistant.set_user_disabled(args.name, args.disabled)  # the stored name: alice may mean Alice
    say(f"已{'停用' if args.disabled else '启用'}账户：{field(account.name)}")
    return 0


def reset_password(args: argparse.Namespace, assistant) -> int:
    if assistant.user_named(args.name) is None:  # said before a password is asked for (review 392 #9)
        raise AccountError(f"找不到用户：{args.name}")
    account = assistant.reset_user_password(args.name, read_new_password())
    say(f"已重置 {field(account.name)} 的密码，锁定已解除，原有会话已结束")
    return 0


def set_email(args: argparse.Namespace, assistant) -> int:
    """The account's single sign-on address: exactly one of ADDRESS and --clear (an empty ADDRESS is no clearing)."""
    if (args.address is None) == (not args.clear):
        raise AccountError("请给出新的邮箱，或用 --clear 清除邮箱（二者选一）")
    if not args.clear and not args.address.strip():
        raise AccountError("邮箱是空的：要清除邮箱请用 --clear")
    before = {a.name: a.email for a in assistant.list_users()}
    account = assistant.set_user_email(args.name, "" if args.clear else args.address)
    if (before.get(account.name) or "").casefold() == (account.email or "").casefold():  # no login ended
        say(f"{field(account.name)} 的单点登录邮箱没有改动（{field(account.email) or '未设置'}），原有会话不受影响")
        return 0
    what = f"单点登录邮箱改为 {field(account.email)}" if account.email else "单点登录邮箱已清除"
    say(f"{field(account.name)} 的{what}，原有会话已结束")
    return 0
