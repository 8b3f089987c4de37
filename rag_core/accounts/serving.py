"""May the app listen where it is told to? Desktop (loopback) always; any other address only with accounts.

`scripts/run.sh` runs `python -m rag_core.accounts.serving [streamlit args…]` before it
starts Streamlit; the app checks the same rule at every page (`ui.layout`). Cheap on
purpose: it reads the account file only, no model, no index.

An empty or unset address is every interface (Streamlit binds them all), never "local".
The desktop mode (no account, no login, everyone the administrator) is for this machine's
browser only, so a page request must also name this machine in its Host: a web page whose
domain re-resolves to 127.0.0.1 (DNS rebinding) reaches the listening socket, but under its
own host name, and is refused. Team mode asks every page for a login: any address, any host.
"""

from __future__ import annotations

import ipaddress
import os
import sqlite3
import sys
from collections.abc import Sequence
from urllib.parse import urlsplit

from ..errors import SettingsError
from ..settings import Settings
from ..storage.sqlite_access import damage_reason
from .store import AccountStore

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
REFUSAL = (
    "拒绝启动：要在 {address} 上对其他电脑提供服务，必须先建立账户（否则任何能访问这个地址的人都能看到全部制度和记忆）。\n"
    "请先创建第一个管理员账户（密码会要求输入两次）：\n"
    "    .venv/bin/python -m rag_core users add 你的名字 --role admin\n"
    "之后所有页面都需要登录。只在本机使用时，不要指定 --server.address（默认 127.0.0.1）。"
)
ALL_INTERFACES = "所有网络接口"  # what an empty or unset address means to Streamlit
HOST_REFUSAL = (
    "拒绝访问：还没有账户时（桌面模式，无需登录）只能在本机用 http://localhost:端口 或 http://127.0.0.1:端口 打开，"
    "这个请求用的地址是“{host}”。如果是别的网页把你带到这里，请关闭它；要让同事通过网络使用，请先建立账户（见使用说明）。"
)


def requested_address(argv: Sequence[str], environ: dict[str, str] | None = None) -> str:
    """The address Streamlit will listen on: `--server.address X` / `--server.address=X`, then the environment, then config."""
    environ = dict(os.environ if environ is None else environ)
    args = list(argv)
    for i, arg in enumerate(args):
        if arg == "--server.address" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--server.address="):
            return arg.split("=", 1)[1]
    return environ.get("STREAMLIT_SERVER_ADDRESS", "127.0.0.1")  # .streamlit/config.toml binds 127.0.0.1


def is_local(address: str | None) -> bool:
    """True for a listening address only this machine reaches ("" and None are every interface)."""
    return (address or "").strip() in LOOPBACK


def is_loopback_host(host: str) -> bool:
    """True for a Host header naming this machine: localhost or a loopback address, with any port."""
    try:
        parsed = urlsplit(f"//{host.strip()}")
        name, _port = parsed.hostname, parsed.port  # the port is read to check it is a number
    except ValueError:
        return False
    if not name or parsed.username is not None or parsed.password is not None or parsed.path or parsed.query \
            or parsed.fragment:
        return False
    name = name.rstrip(".")  # hostname is lower case already; "localhost." is the same name
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def desktop_refusal(address: str | None, host: str | None = None) -> str | None:
    """Why the no-login desktop app must not serve on `address`, or this request with Host `host`; None when it
    may. `host` None: no request header (an in-process run); every browser sends one."""
    if not is_local(address):
        return REFUSAL.format(address=(address or "").strip() or ALL_INTERFACES)
    if host is not None and not is_loopback_host(host):
        return HOST_REFUSAL.format(host=host.strip()[:80] or "（空）")
    return None


def check(address: str, settings: Settings) -> str | None:
    """None when serving on `address` is allowed, else the Chinese refusal."""
    if is_local(address):
        return None
    try:
        if AccountStore(settings.path("accounts.sqlite3")).has_accounts():
            return None
    except sqlite3.DatabaseError as exc:  # damaged: nobody can be checked, so nobody is served
        return (f"拒绝启动：accounts.sqlite3 已损坏（{damage_reason(exc)}），无法确认谁可以登录。"
                "请运行 python -m rag_core doctor 查看修复办法")
    return REFUSAL.format(address=address.strip() or ALL_INTERFACES)


def main(argv: Sequence[str] | None = None) -> int:
    address = requested_address(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:  # a bad .env: its Chinese line, not a traceback before the app's (review 361)
        sys.stderr.write(f"助手没有启动：{exc}\n")
        return 1
    refusal = check(address, settings)
    if refusal:
        sys.stderr.write(refusal + "\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
