"""Review rev-own2, R3/R4, and rev-own1's account labels (R5). Each test failed before its fix.

R3. An account made under a name reserved since (系统) can never log in (该账户已停用), but 用户管理 and `users list`
    showed it as 正常: now its state says so and what to do (名称已保留，无法登录（请新建账户）).
R4. `reset_user_password`'s audit row said 当前登录保留 when `keep_token` was no session of that account (another's
    token, garbage): `own` is decided by the token resolving to the account, before the reset.
R5. `add_user` / `set_user_role` took an audience label holding personal data (张三13700001111) that uploads refuse
    (`upload_input.label_refusal`): the same refusal now, before anything is written.
"""

from __future__ import annotations

import io
import sqlite3

import pytest
from cli_support import invoke
from fakes import fake_assistant
from test_pages_forms import LOCAL, logged_in_admin

import rag_core.cli
from rag_core import AccountError

PW = "Zq8!wide-open"
RESERVED = "名称已保留，无法登录（请新建账户）"


@pytest.fixture()
def reserved(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123", actor=LOCAL)
    a.add_user("xitong", "hr", PW, actor=LOCAL)
    with sqlite3.connect(a.accounts.path) as db:  # an HR account an older version let be named 系统
        db.execute("UPDATE users SET name = '系统' WHERE name = 'xitong'")
    return a


def test_the_users_page_says_a_reserved_account_cannot_log_in(reserved, tmp_path, monkeypatch):
    with pytest.raises(AccountError):
        reserved.login("系统", PW)
    at = logged_in_admin(reserved, tmp_path, monkeypatch, "pages/users.py")
    frame = at.dataframe[0].value
    assert frame[frame["用户名"] == "系统"].iloc[0]["状态"] == RESERVED
    assert frame[frame["用户名"] == "boss"].iloc[0]["状态"] == "正常"


def test_users_list_says_it_too(reserved, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: reserved)
    out = invoke(capsys, "--data-dir", str(tmp_path / "store"), "users", "list").stdout
    line = next(line for line in out.splitlines() if "系统" in line)
    assert RESERVED in line and "正常" not in line


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", PW)
    mine = a.login("boss", PW)
    boss = a.session_principal(mine)
    a.add_user("zhang", "employee", PW, actor=boss)
    return a, boss, mine


def _password_row(a, boss):
    return a.audit_entries(actor=boss, action="user.password")[0]


def test_a_kept_token_of_another_account_is_no_own_reset(team):
    a, boss, _ = team
    theirs = a.login("zhang", PW)
    a.reset_user_password("boss", "Other-pw-456", actor=boss, keep_token=theirs)
    assert a.session_principal(theirs) is not None  # zhang's own session is none of this reset's
    boss = a.session_principal(a.login("boss", "Other-pw-456"))
    row = _password_row(a, boss)
    assert row.outcome == "ok" and "当前登录保留" not in row.detail


def test_a_garbage_token_is_no_own_reset_either(team):
    a, boss, mine = team
    a.reset_user_password("boss", "Other-pw-456", actor=boss, keep_token="not-a-token")
    assert a.session_principal(mine) is None  # nothing kept
    boss = a.session_principal(a.login("boss", "Other-pw-456"))
    assert "当前登录保留" not in _password_row(a, boss).detail


def test_ones_own_session_is_still_kept_and_said(team):
    a, boss, mine = team
    a.reset_user_password("boss", "Other-pw-456", actor=boss, keep_token=mine)
    assert a.session_principal(mine) == boss
    assert "当前登录保留" in _password_row(a, boss).detail


@pytest.mark.parametrize("label", ["张三13700001111", "li@example.com"])
def test_an_account_audience_with_personal_data_is_refused(team, label):
    a, boss, _ = team
    with pytest.raises(AccountError) as refused:
        a.add_user("zhao", "employee", PW, [label], actor=boss)
    assert "受众标签不能含" in str(refused.value) and "13700001111" not in str(refused.value)
    assert "zhao" not in {u.name for u in a.list_users(actor=boss)}
    with pytest.raises(AccountError):
        a.set_user_role("zhang", "employee", ["finance", label], actor=boss)
    assert a.accounts.get("zhang").audiences == ()
    trail = " ".join(e.detail for e in a.audit_entries(actor=boss))
    assert "13700001111" not in trail and "li@example.com" not in trail


def test_the_cli_refuses_it_too(capsys, monkeypatch, tmp_path):
    a = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: a)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{PW}\n{PW}\n"))
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "users", "add", "boss", "--role", "admin",
                    "--audience", "张三13700001111")
    assert result.exit_code != 0 and "受众标签不能含" in result.stdout + result.stderr
    assert not a.accounts.has_accounts()


def test_a_plain_department_label_is_still_taken(team):
    a, boss, _ = team
    assert a.add_user("zhao", "employee", PW, ["finance", "管理者"], actor=boss).audiences == ("finance", "managers")


def test_a_name_refused_as_an_address_says_so(team):
    a, boss, _ = team
    with pytest.raises(AccountError) as refused:  # masked as 住[住址]: the refusal named only phones, mails, ids, cards
        a.add_user("住3号楼5层", "employee", PW, actor=boss)
    assert "住址" in str(refused.value) and "3号楼" not in str(refused.value)
