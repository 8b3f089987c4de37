"""An administrator asking as someone else (ask user=X, the CLI's --user X) leaves one audit row in both modes:
the turn reads X's memories and earlier turns (review rev51b item 12: team mode left none)."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core import Principal
from rag_core.errors import PermissionDenied

LOCAL = Principal(user="local", role="admin")
ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n"


def asked_as_rows(a, admin: Principal) -> list[tuple[str, str, str, str]]:
    return [(e.actor, e.target, e.outcome, e.detail) for e in a.audit_entries(action="ask.as", actor=admin)]


def test_team_mode_ask_as_someone_else_is_audited(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=LOCAL).ok
    a.add_user("root", "admin", "pw-admin-123456", actor=LOCAL)
    a.add_user("carol", "employee", "pw-employee-123456", actor=LOCAL)
    root, carol = Principal("root", "admin"), Principal("carol", "employee")
    a.remember("carol", "我在上海分公司工作", actor=carol)
    a.ask("我下个月要离职，年假几天", actor=carol, conversation="cc1")
    assert asked_as_rows(a, root) == []  # one's own turn is no one else's record
    a.ask("年假须提前几天申请", user="carol", actor=root, conversation="cc1")
    assert asked_as_rows(a, root) == [("root", "carol", "ok", "对话 cc1")]


def test_desktop_mode_ask_as_someone_else_is_audited_the_same_way(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=LOCAL).ok
    a.ask("年假几天", user="bob", actor=LOCAL)
    assert asked_as_rows(a, LOCAL) == [("local", "bob", "ok", "不在对话中")]


def test_a_refused_ask_as_leaves_no_ok_row(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("root", "admin", "pw-admin-123456", actor=LOCAL)
    a.add_user("carol", "employee", "pw-employee-123456", actor=LOCAL)
    try:
        a.ask("年假几天", user="root", actor=Principal("carol", "employee"))
    except PermissionDenied:
        pass
    assert asked_as_rows(a, Principal("root", "admin")) == []
