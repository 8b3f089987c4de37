"""May the app listen where it is told to? Desktop (loopback) always; any other address only with accounts.

`scripts/run.sh` runs `python -m rag_core.accounts.serving [streamlit args…]` before it
starts Streamlit; the app checks the same rule at every page (`ui.layout`). Cheap on
purpose: it reads the account file only, no model, no index.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Sequence

from ..settings import Settings
from .store import AccountStore

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
REFUSAL = (
    "拒绝启动：要在 {address} 上对其他电脑提供服务，必须先建立账户（否则任何能访问这个地址的人都能看到全部制度和记忆）。\n"
    "请先创建第一个管理员账户（密码会要求输入两次）：\n"
    "    .venv/bin/python -m rag_core users add 你的名字 --role admin\n"
    "之后所有页面都需要登录。只在本机使用时，不要指定 --server.address（默认 127.0.0.1）。"
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


def is_local(address: str) -> bool:
    return address.strip() in LOOPBACK


def check(address: str, settings: Settings) -> str | None:
    """None when serving on `address` is allowed, else the Chinese refusal."""
    if is_local(address):
        return None
    try:
        if AccountStore(settings.path("accounts.sqlite3")).has_accounts():
            return None
    except sqlite3.DatabaseError as exc:  # damaged: nobody can be checked, so nobody is served
        return (f"拒绝启动：accounts.sqlite3 已损坏（{str(exc)[:80]}），无法确认谁可以登录。"
                "请运行 python -m rag_core doctor 查看修复办法")
    return REFUSAL.format(address=address or "所有网络接口")


def main(argv: Sequence[str] | None = None) -> int:
    address = requested_address(sys.argv[1:] if argv is None else argv)
    refusal = check(address, Settings.from_env())
    if refusal:
        sys.stderr.write(refusal + "\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
