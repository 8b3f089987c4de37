"""Admin page defects found by the review (each test failed before its fix).

The pages' table helpers are run without `main()` (which needs a running Streamlit script).
"""

from __future__ import annotations

import csv
import io
import types
from pathlib import Path

from fakes import fake_assistant

from rag_core import Principal

ROOT = Path(__file__).resolve().parent.parent
ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")


def page_module(name: str) -> types.ModuleType:
    """A page's functions without running its `main()`."""
    source = (ROOT / "pages" / name).read_text(encoding="utf-8").rsplit("\nmain()", 1)[0]
    module = types.ModuleType(name)
    exec(compile(source, str(ROOT / "pages" / name), "exec"), module.__dict__)
    return module


def team(tmp_path: Path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("wang", "admin", "password123")
    assistant.add_user("li", "hr", "password123", actor=ADMIN)
    return assistant


def test_audit_csv_export_keeps_formulas_inert(tmp_path):
    assistant = team(tmp_path)
    assistant.ingest_bytes("# 考勤制度\n\n第一条 员工每天工作八小时。\n".encode(), "=HYPERLINK(A1)+考勤.md", actor=HR)
    page = page_module("audit.py")
    data = page.audit_csv(assistant, page.audit_frame(assistant.audit_entries(actor=ADMIN)))
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][:2] == ["时间", "操作人"]
    cells = [c for row in rows for c in row]
    assert not [c for c in cells if c[:1] in "=+-@"], cells
    assert "'=HYPERLINK(A1)+考勤.md" in cells  # still there, as text


def test_audit_filter_finds_the_desktop_user_by_the_name_the_table_shows(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.act_as_local_administrator()
    assistant.add_user("wang", "admin", "password123")  # written by the desktop user, stored as local
    page = page_module("audit.py")
    assert page.stored_actor(" 本机用户 ") == "local"
    assert page.stored_actor("wang") == "wang"
    rows = assistant.audit_entries(user=page.stored_actor("本机用户"), actor=ADMIN)
    assert [r.action for r in rows] == ["user.add"]


def _locked_then_expired(tmp_path):
    """li locked 75 minutes ago (the 15-minute lock ran out), wang locked now."""
    from datetime import UTC, datetime, timedelta

    assistant = team(tmp_path)
    past = datetime.now(UTC) - timedelta(minutes=75)
    for _ in range(5):
        assistant.accounts.authenticate("li", "wrong-pass", now=past)
    for _ in range(5):
        assistant.accounts.authenticate("wang", "wrong-pass")
    return assistant


def test_an_expired_lock_is_not_shown_as_locked_on_the_page(tmp_path):
    assistant = _locked_then_expired(tmp_path)
    frame = page_module("users.py").users_frame([assistant.accounts.get("li"), assistant.accounts.get("wang")])
    assert frame["状态"][0] == "正常"
    assert frame["状态"][1].startswith("已锁定（至 20")


def test_an_expired_lock_is_not_shown_as_locked_by_the_cli(tmp_path, capsys):
    import argparse

    from rag_core.cli.users import list_users

    assistant = _locked_then_expired(tmp_path)
    assistant.act_as_local_administrator()
    capsys.readouterr()
    list_users(argparse.Namespace(json=False), assistant)
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["li"].endswith("正常"), lines
    assert "已锁定（至 20" in lines["wang"], lines


def test_audit_filter_finds_the_sample_import_by_the_name_the_table_shows():
    """Review 213: the table shows 系统（示例制度导入）; typing 系统 found nothing."""
    page = page_module("audit.py")
    assert page.stored_actor("系统") == page.stored_actor("系统（示例制度导入）") == "system"
