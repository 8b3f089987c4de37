"""A busy account file is said in one Chinese line, audited as failed (review 52n1 #2).

Another process holding accounts.sqlite3's write lock made login, the user changes and a password
change raise sqlite3's English "database is locked": a traceback on the pages and in the CLI (rc 1).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from app_support import logged_in_with
from fakes import fake_assistant

from rag_core import Assistant, Principal
from rag_core.errors import StoreBusy
from ui.inert import escape_md

LOCAL = Principal("local", "admin")
BOSS, LI = Principal("boss", "admin"), Principal("li", "hr")
PASSWORD = "correct horse"
BUSY_LINE = "accounts.sqlite3 正被另一个进程占用，请稍后再试"
ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")

ACTIONS: dict[str, tuple[str, Callable[[Assistant], object]]] = {  # audit action, the call
    "login": ("login", lambda a: a.login("li", PASSWORD)),
    "wrong_login": ("login", lambda a: a.login("li", "wrong guess")),
    "add_user": ("user.add", lambda a: a.add_user("zhao", "employee", PASSWORD, actor=BOSS)),
    "set_user_role": ("user.role", lambda a: a.set_user_role("li", "employee", actor=BOSS)),
    "set_user_disabled": ("user.disable", lambda a: a.set_user_disabled("li", True, actor=BOSS)),
    "reset_user_password": ("user.password", lambda a: a.reset_user_password("li", "battery staple", actor=BOSS)),
    "change_own_password": ("password.change", lambda a: a.change_own_password(PASSWORD, "battery staple", actor=LI)),
}


def team(path: Path) -> Assistant:
    assistant = fake_assistant(path)
    assistant.add_user("boss", "admin", PASSWORD, actor=LOCAL)
    assistant.add_user("li", "hr", PASSWORD, actor=BOSS)
    assistant.accounts._db.execute("PRAGMA busy_timeout = 50")  # the writer never lets go while it waits: fail soon
    return assistant


@contextmanager
def another_process_writing(path: Path) -> Iterator[None]:
    """Another connection holds the file's write lock (the web app mid-write, a backup tool)."""
    other = sqlite3.connect(path)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.rollback()
        other.close()


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_busy_account_file_is_one_chinese_line_and_a_failed_audit_row(tmp_path, action: str) -> None:
    assistant = team(tmp_path / "store")
    audit_action, call = ACTIONS[action]
    before = len(assistant.audit_entries(action=audit_action, actor=BOSS))
    with another_process_writing(assistant.accounts.path):
        with pytest.raises(StoreBusy) as refused:
            call(assistant)
    assert str(refused.value) == BUSY_LINE
    rows = assistant.audit_entries(action=audit_action, actor=BOSS)
    assert len(rows) == before + 1
    assert (rows[0].outcome, rows[0].detail) == ("failed", BUSY_LINE)
    assert "wrong guess" not in rows[0].actor and "horse" not in rows[0].actor
    if action != "wrong_login":
        call(assistant)  # the lock let go: the same action works


def _busy_page(assistant: Assistant, page: str, name: str, tmp_path, monkeypatch):
    at = logged_in_with(assistant, APP, name, PASSWORD, tmp_path, monkeypatch)
    return at.switch_page(page).run() if page else at


def test_the_users_page_says_busy_in_one_line(tmp_path, monkeypatch) -> None:
    assistant = team(tmp_path / "store")
    at = _busy_page(assistant, "pages/users.py", "boss", tmp_path, monkeypatch)
    boxes = {t.label: t for t in reversed(at.text_input)}  # the add form's 再输入一次, not the reset popover's
    boxes["用户名"].set_value("zhao")
    boxes["初始密码"].set_value("battery staple")
    boxes["再输入一次"].set_value("battery staple")
    with another_process_writing(assistant.accounts.path):
        next(b for b in at.button if b.label == "新建").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == [escape_md(BUSY_LINE)]


def test_the_account_page_says_busy_in_one_line(tmp_path, monkeypatch) -> None:
    assistant = team(tmp_path / "store")
    at = _busy_page(assistant, "pages/account.py", "li", tmp_path, monkeypatch)
    boxes = {t.label: t for t in at.text_input}
    boxes["当前密码"].set_value(PASSWORD)
    boxes["新密码"].set_value("battery staple")
    boxes["再次输入新密码"].set_value("battery staple")
    with another_process_writing(assistant.accounts.path):
        next(b for b in at.button if b.label == "修改密码").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == [escape_md(BUSY_LINE)]


def test_the_login_form_says_busy_in_one_line(tmp_path, monkeypatch) -> None:
    from app_support import point_the_app_at
    from streamlit.testing.v1 import AppTest

    import ui.state

    assistant = team(tmp_path / "store")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    boxes = {t.label: t for t in at.text_input}
    boxes["用户名"].set_value("li")
    boxes["密码"].set_value(PASSWORD)
    with another_process_writing(assistant.accounts.path):
        next(b for b in at.button if b.label == "登录").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == [escape_md(BUSY_LINE)]


def test_the_cli_says_busy_in_one_line(tmp_path) -> None:
    """A real second process (the CLI waits its own five seconds for the lock, then gives up)."""
    assistant = team(tmp_path / "store")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False", "PYTHONPATH": str(ROOT)}
    with another_process_writing(assistant.accounts.path):
        run = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(tmp_path / "store"), "users", "disable",
                              "li"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert run.returncode == 1
    assert run.stderr.strip() == f"错误：{BUSY_LINE}", run.stderr
    assert not assistant.accounts.get("li").disabled
