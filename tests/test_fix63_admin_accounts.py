"""Account defects of review 63 (rev-admin), engine side. Each test failed before its fix.

1. An account's audience labels were stored as typed: "Managers" or 管理者 (the name the pages show) was a label no
   document carries (uploads store 'managers'), so the grant read nothing. Now `add_user` / `set_user_role` (and so
   the CLI's `users add --audience`) read each label as uploads do (`audience_label`), and a session's principal
   and the users list read labels stored before the fix the same way.
2. The audit trail's 操作人 filter matched the stored name exactly: alice found nothing for the account Alice.
3. An account could be named 系统, which the audit page shows for the samples' import (stored as system).
6. SSO addresses were one per address up to ASCII case only: Ärger@firma.de and ärger@firma.de were two accounts.
7. A legacy admin under a reserved name (System, made before the names were reserved; it can never log in) counted
   as an active admin, so the last real one could demote themselves.
"""

from __future__ import annotations

import io
import sqlite3

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli
from rag_core import AccountError
from rag_core.accounts.names import check_name, is_reserved
from rag_core.accounts.store import AccountStore

PW = "Zq8!wide-open"
DOC = "# 管理者考核办法\n\n部门经理的季度考核奖金系数为一点五倍，由管理者委员会审定。\n"
QUESTION = "部门经理季度考核奖金系数"


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", PW)
    return a, a.session_principal(a.login("boss", PW))


@pytest.mark.parametrize("typed", ["Managers", "管理者", "managers", " ＭＡＮＡＧＥＲＳ "])
def test_an_audience_given_as_shown_or_in_any_case_reads_the_managers_documents(team, typed):
    a, boss = team
    a.ingest_bytes(DOC.encode(), "kaohe.md", audience=["Managers"], actor=boss)
    account = a.add_user("zhang", "employee", PW, [typed], actor=boss)
    assert account.audiences == ("managers",)
    reader = a.session_principal(a.login("zhang", PW))
    assert a.search(QUESTION, actor=reader).hits


def test_a_role_change_reads_the_audiences_the_same_way(team):
    a, boss = team
    a.add_user("zhang", "employee", PW, actor=boss)
    assert a.set_user_role("zhang", "employee", ["管理者", "finance"], actor=boss).audiences == ("finance", "managers")


def test_labels_stored_before_the_fix_are_read_as_their_label(team):
    a, boss = team
    a.ingest_bytes(DOC.encode(), "kaohe.md", audience=["managers"], actor=boss)
    a.add_user("zhang", "employee", PW, actor=boss)
    with sqlite3.connect(a.accounts.path) as db:  # as an older version stored it
        db.execute("UPDATE users SET audiences = 'Managers' WHERE name = 'zhang'")
    reader = a.session_principal(a.login("zhang", PW))
    assert reader.audiences == ("managers",)
    assert a.search(QUESTION, actor=reader).hits
    assert next(u for u in a.list_users(actor=boss) if u.name == "zhang").audiences == ("managers",)


def test_the_cli_audience_is_the_label(capsys, monkeypatch, tmp_path):
    a = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: a)
    for name, role, extra in (("boss", "admin", []), ("zhang", "employee", ["--audience", "Managers"])):
        monkeypatch.setattr("sys.stdin", io.StringIO(f"{PW}\n{PW}\n"))
        assert invoke(capsys, "--data-dir", str(tmp_path / "store"), "users", "add", name, "--role", role, *extra).exit_code == 0
    assert a.accounts.get("zhang").audiences == ("managers",)


def test_the_audit_user_filter_finds_the_account_a_folded_spelling_means(team):
    a, boss = team
    a.add_user("Alice", "employee", PW, actor=boss)
    a.login("alice", PW)
    rows = a.audit_entries(user="alice", actor=boss)
    assert rows and {r.actor for r in rows} == {"Alice"}
    assert a.audit_entries(user="Alice", actor=boss) == rows
    assert a.audit_entries(user="nobody", actor=boss) == []  # no account: the typed name, matching nothing


def test_the_engines_own_name_is_not_read_as_a_legacy_account(team):
    a, boss = team
    with sqlite3.connect(a.accounts.path) as db:  # made before the names were reserved
        db.execute("INSERT INTO users (name, role, password_hash, created_at) "
                   "VALUES ('System', 'employee', 'x', '2024-01-01T00:00:00+00:00')")
    a.audit_log.record("system", "admin", "document.upload", "年假制度.md", "ok", "示例制度导入")
    assert [r.target for r in a.audit_entries(user="system", actor=boss)] == ["年假制度.md"]


def test_the_cli_audit_user_filter_too(capsys, monkeypatch, tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("Alice", "admin", PW)
    a.login("Alice", PW)
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: a)
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "audit", "--user", "alice", "--json")
    assert result.exit_code == 0 and '"Alice"' in result.stdout


@pytest.mark.parametrize("name", ["系统", "系統", "系统（示例制度导入）"])
def test_the_name_the_audit_shows_for_the_samples_import_is_reserved(name):
    assert is_reserved(name)
    with pytest.raises(AccountError):
        check_name(name)


def test_an_account_named_xitong_is_refused(team):
    a, boss = team
    with pytest.raises(AccountError, match="保留"):
        a.add_user("系统", "employee", PW, actor=boss)


@pytest.mark.parametrize("second", ["ärger@firma.de", "ÄRGER@firma.de"])
def test_an_address_differing_only_in_non_ascii_case_is_taken(tmp_path, second):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("u1", "employee", PW, email="Ärger@firma.de")
    with pytest.raises(AccountError, match="已属于"):
        store.add("u2", "employee", PW, email=second)
    store.add("u3", "employee", PW)
    with pytest.raises(AccountError, match="已属于"):
        store.set_email("u3", second)
    assert store.by_email("ärger@FIRMA.de").name == "u1"


def test_sharp_s_is_no_case_of_ss(tmp_path):
    """Case only: straße and strasse are two mailboxes, and the look-up is the sign-on allow-list."""
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("u1", "employee", PW, email="straße@firma.de")
    store.add("u2", "employee", PW, email="strasse@firma.de")
    assert store.by_email("STRASSE@firma.de").name == "u2"


def test_an_older_pair_differing_in_non_ascii_case_opens_neither(tmp_path):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("u1", "employee", PW, email="Ärger@firma.de")
    store.add("u2", "employee", PW)
    with sqlite3.connect(store.path) as db:  # as an older version let it in
        db.execute("UPDATE users SET email = 'ärger@firma.de' WHERE name = 'u2'")
    assert store.names_with_email("ärger@firma.de") == ["u1", "u2"]
    assert store.by_email("ärger@firma.de") is None


def test_a_legacy_admin_under_a_reserved_name_is_no_active_admin(team):
    a, boss = team
    with sqlite3.connect(a.accounts.path) as db:  # made before the names were reserved
        db.execute("INSERT INTO users (name, role, password_hash, created_at) "
                   "VALUES ('System', 'admin', 'x', '2024-01-01T00:00:00+00:00')")
    with pytest.raises(AccountError, match="最后一位"):
        a.set_user_role("boss", "employee", actor=boss)
    with pytest.raises(AccountError, match="最后一位"):
        a.accounts.set_disabled("boss")
    assert a.set_user_role("System", "employee", actor=boss).role == "employee"  # demoting it is no loss
