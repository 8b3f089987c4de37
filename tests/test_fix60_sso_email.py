"""An account's single sign-on address after it was created, and refused sign-ons in the audit (review 60,
rev-sso defects 3 and 5).

3. Only `AccountStore.add` wrote the e-mail: an account made before single sign-on was set up could never be put
   on the allow-list, a wrong or recycled address never corrected or removed. Now `set_email` (same checks, ""
   clears it, ends that account's sessions), the facade's `set_user_email` (permission `users`, audited), the CLI's
   `users set-email` and a field on 用户管理.
5. A refused sign-on was audited as '[邮箱]' (every address alike) or raw when the masker missed the form
   (zhang.san@corp). Now a keyed tag per address, 未知邮箱#xxxxxxxx, in the actor and the target.
Failed before the fix.
"""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path

import pytest
from app_support import point_the_app_at, submit_login
from cli_support import invoke
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

import rag_core.cli
from rag_core import AccountError, PermissionDenied
from rag_core.accounts.store import AccountStore

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TAG = re.compile(r"未知邮箱#[0-9a-f]{8}")


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123")
    admin = a.session_principal(a.login("boss", "password123"))
    a.add_user("li", "employee", "password123", actor=admin)
    a.add_user("wang", "hr", "password123", email="wang@example.com", actor=admin)
    return a, admin


def test_the_store_sets_changes_and_clears_an_address(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("li", "employee", "password123")
    assert store.set_email("li", " li@example.com ").email == "li@example.com"
    assert store.by_email("LI@example.com").name == "li"
    assert store.set_email("li", "li.san@example.com").email == "li.san@example.com"
    assert store.by_email("li@example.com") is None
    assert store.set_email("li", "").email == ""
    assert store.by_email("li.san@example.com") is None


def test_the_store_checks_the_address_like_add(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("li", "employee", "password123")
    store.add("wang", "hr", "password123", email="wang@example.com")
    with pytest.raises(AccountError, match="邮箱格式不正确"):
        store.set_email("li", "li at example")
    with pytest.raises(AccountError, match="已属于用户“wang”"):
        store.set_email("li", "WANG@example.com")
    with pytest.raises(AccountError, match="找不到用户"):
        store.set_email("nobody", "nobody@example.com")
    assert store.set_email("wang", "Wang@Example.com").email == "Wang@Example.com"  # its own address, recased
    assert store.get("li").email == ""


def test_a_changed_address_ends_the_accounts_sessions(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("li", "employee", "password123", email="li@example.com")
    store.add("wang", "hr", "password123")
    hers, his = store.open_session("li"), store.open_session("wang")
    store.set_email("li", "li.new@example.com")
    assert store.resolve_session(hers) is None and store.resolve_session(his).name == "wang"
    again = store.open_session("li")
    store.set_email("li", "")
    assert store.resolve_session(again) is None


def test_the_facade_sets_the_address_for_an_administrator_and_audits_it(team):
    a, admin = team
    assert a.set_user_email("li", "li@example.com", actor=admin).email == "li@example.com"
    assert a.session_principal(a.login_by_email("li@example.com", verified=True)).user == "li"
    assert a.set_user_email("LI", "", actor=admin).email == ""  # the stored name a typed spelling means
    with pytest.raises(AccountError, match="没有对应的账户"):
        a.login_by_email("li@example.com", verified=True)
    rows = a.audit_entries(action="user.email", actor=admin)
    assert [(r.target, r.outcome) for r in rows] == [("li", "ok"), ("li", "ok")]
    assert all("li@example.com" not in r.detail for r in rows)
    assert "user.email" in a.audit_names()[0]


def test_the_facade_refuses_without_the_users_permission_and_audits_a_failure(team):
    a, admin = team
    li = a.session_principal(a.login("li", "password123"))
    with pytest.raises(PermissionDenied):
        a.set_user_email("li", "li@example.com", actor=li)
    assert a.accounts.get("li").email == ""
    with pytest.raises(AccountError, match="已属于"):
        a.set_user_email("li", "wang@example.com", actor=admin)
    failed = a.audit_entries(action="user.email", outcome="failed", actor=admin)
    assert len(failed) == 1 and "wang@example.com" not in failed[0].detail


def test_the_cli_sets_and_clears_an_address(tmp_path, monkeypatch, capsys):
    store = tmp_path / "store"
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))

    def cli(*args, stdin=""):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        return invoke(capsys, "--data-dir", str(store), *args)

    assert cli("users", "add", "wang", "--role", "admin", stdin="correct horse\ncorrect horse\n").exit_code == 0
    done = cli("users", "set-email", "wang", "wang@example.com")
    assert done.exit_code == 0 and "wang" in done.stdout
    assert AccountStore(store / "accounts.sqlite3").get("wang").email == "wang@example.com"
    bad = cli("users", "set-email", "wang", "not an address")
    assert bad.exit_code == 1 and "邮箱格式不正确" in bad.stderr
    cleared = cli("users", "set-email", "wang", "--clear")
    assert cleared.exit_code == 0 and AccountStore(store / "accounts.sqlite3").get("wang").email == ""
    assert cli("users", "set-email", "wang").exit_code != 0  # neither an address nor --clear
    assert cli("users", "set-email", "wang", "w@example.com", "--clear").exit_code != 0  # both


def test_the_users_page_sets_an_address(tmp_path, monkeypatch):
    import ui.state

    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123")
    a.add_user("li", "employee", "password123", actor=a.session_principal(a.login("boss", "password123")))
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    at = submit_login(at, "boss", "password123").switch_page("pages/users.py").run()
    next(s for s in at.selectbox if s.label == "账户").set_value("li").run()
    next(t for t in at.text_input if t.label == "单点登录邮箱").set_value("li@example.com")
    next(b for b in at.button if b.label == "保存邮箱").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert a.accounts.get("li").email == "li@example.com"
    assert any("li" in s.value for s in at.success), [s.value for s in at.success]
    next(t for t in at.text_input if t.label == "单点登录邮箱").set_value("wang@")
    next(b for b in at.button if b.label == "保存邮箱").click().run()
    assert any("邮箱格式不正确" in e.value for e in at.error) and a.accounts.get("li").email == "li@example.com"


def _sso_rows(a, admin, count):
    return [r for r in a.audit_entries(action="login", actor=admin) if r.outcome == "failed"][:count]


@pytest.mark.parametrize("verified", [True, False])
def test_a_refused_sign_on_is_audited_under_a_keyed_tag_per_address(team, verified):
    a, admin = team
    for email in ("zhang.san@corp", "stranger@example.com", "STRANGER@example.com"):
        with pytest.raises(AccountError):
            a.login_by_email(email, verified=verified)
    newest_first = _sso_rows(a, admin, 3)
    assert all(TAG.fullmatch(r.actor) and r.target == r.actor for r in newest_first), newest_first
    upper, lower, corp = (r.actor for r in newest_first)
    assert upper == lower != corp  # one address (any case) one tag; two addresses told apart
    assert not any("zhang.san" in f"{r.actor}{r.target}{r.detail}" for r in newest_first)


def test_the_tag_is_keyed_by_the_store_not_a_plain_hash(team, tmp_path):
    a, admin = team
    with pytest.raises(AccountError):
        a.login_by_email("zhang.san@corp", verified=True)
    other = fake_assistant(tmp_path / "other")
    other.add_user("boss", "admin", "password123")
    with pytest.raises(AccountError):
        other.login_by_email("zhang.san@corp", verified=True)
    mine = _sso_rows(a, admin, 1)[0].actor
    theirs = _sso_rows(other, other.session_principal(other.login("boss", "password123")), 1)[0].actor
    assert TAG.fullmatch(mine) and TAG.fullmatch(theirs) and mine != theirs
    with sqlite3.connect(tmp_path / "store" / "audit.sqlite3") as db:
        assert not db.execute("SELECT 1 FROM audit WHERE actor LIKE '%zhang.san%' OR target LIKE '%zhang.san%'").fetchone()
