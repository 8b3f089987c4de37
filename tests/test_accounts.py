"""Accounts: argon2 hashes, lockout, signed sessions, and the `users` commands (password from stdin)."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli
from rag_core import AccountError, PermissionDenied, Principal
from rag_core.accounts.store import LOCK_MINUTES, MAX_FAILURES, AccountStore

ADMIN = Principal("admin1", "admin")


@pytest.fixture()
def store(tmp_path) -> AccountStore:
    accounts = AccountStore(tmp_path / "accounts.sqlite3")
    accounts.add("zhang", "employee", "correct horse")
    return accounts


def test_the_password_is_stored_as_an_argon2id_hash_only(store, tmp_path):
    with sqlite3.connect(tmp_path / "accounts.sqlite3") as db:
        (digest,) = db.execute("SELECT password_hash FROM users WHERE name = 'zhang'").fetchone()
    assert digest.startswith("$argon2id$") and "correct horse" not in digest
    assert "hash" not in json.dumps(store.get("zhang").to_dict())


def test_the_shipped_hash_costs_are_argon2s_own(tmp_path, monkeypatch):
    """The suite hashes at the lowest costs (conftest.TEST_HASH); the shipped store uses argon2-cffi's defaults
    (64 MiB, 3 passes, 4 lanes), and a password hashed cheaply is rehashed at those costs on its next login."""
    from conftest import SHIPPED_HASH

    import rag_core.accounts.store as account_store

    cheap = AccountStore(tmp_path / "accounts.sqlite3")
    cheap.add("zhang", "employee", "correct horse")
    monkeypatch.setattr(account_store, "HASH_PARAMETERS", SHIPPED_HASH)
    shipped = AccountStore(tmp_path / "accounts.sqlite3")
    assert shipped.authenticate("zhang", "correct horse").ok
    with sqlite3.connect(tmp_path / "accounts.sqlite3") as db:
        (digest,) = db.execute("SELECT password_hash FROM users WHERE name = 'zhang'").fetchone()
    assert digest.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_a_wrong_password_is_refused_and_the_right_one_accepted(store):
    assert store.authenticate("zhang", "wrong horse").outcome == "wrong"
    assert store.authenticate("nobody", "correct horse").outcome == "wrong"  # same answer: names are not revealed
    assert store.authenticate("zhang", "correct horse").ok


def test_five_wrong_passwords_lock_the_account_even_against_the_right_one(store):
    now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    outcomes = [store.authenticate("zhang", "guess", now=now).outcome for _ in range(MAX_FAILURES)]
    assert outcomes == ["wrong"] * (MAX_FAILURES - 1) + ["locked"]
    assert store.authenticate("zhang", "correct horse", now=now).outcome == "locked"
    later = now + timedelta(minutes=LOCK_MINUTES + 1)
    assert store.authenticate("zhang", "correct horse", now=later).ok


def test_a_successful_login_resets_the_failure_count(store):
    for _ in range(MAX_FAILURES - 1):
        store.authenticate("zhang", "guess")
    assert store.authenticate("zhang", "correct horse").ok
    assert store.authenticate("zhang", "guess").outcome == "wrong"  # counting starts again


def test_a_password_reset_unlocks(store):
    for _ in range(MAX_FAILURES):
        store.authenticate("zhang", "guess")
    store.reset_password("zhang", "battery staple")
    assert store.authenticate("zhang", "battery staple").ok


def test_sessions_are_signed_expire_and_end(store):
    token = store.open_session("zhang")
    assert store.resolve_session(token).name == "zhang"
    session_id, signature = token.split(".")
    assert store.resolve_session(f"{session_id}.{'0' * len(signature)}") is None  # forged signature
    assert store.resolve_session("garbage") is None and store.resolve_session(None) is None
    later = datetime.now(UTC) + timedelta(days=2)
    assert store.resolve_session(token, now=later) is None  # expired
    store.close_session(token)
    assert store.resolve_session(token) is None
    other = store.open_session("zhang")
    store.set_disabled("zhang")
    assert store.resolve_session(other) is None  # disabling ends every session


def test_bad_names_roles_and_short_passwords_are_refused_in_chinese(store):
    for call in (
        lambda: store.add("x", "employee", "correct horse"),
        lambda: store.add("li", "superuser", "correct horse"),
        lambda: store.add("li", "hr", "short"),
        lambda: store.add("zhang", "hr", "correct horse"),
    ):
        with pytest.raises(AccountError):
            call()


def test_login_through_the_facade_is_audited_and_a_lock_leaves_one_row(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("admin1", "admin", "correct horse")
    facade.add_user("zhang", "employee", "correct horse", actor=ADMIN)
    token = facade.login("zhang", "correct horse")
    assert facade.session_principal(token) == Principal("zhang", "employee")
    for _ in range(MAX_FAILURES):
        with pytest.raises(AccountError):
            facade.login("zhang", "guess")
    rows = [(e.action, e.target, e.outcome) for e in facade.audit_entries(action="login", actor=ADMIN)]
    assert rows == [("login", "zhang", "locked")] + [("login", "zhang", "failed")] * (MAX_FAILURES - 1) + [
        ("login", "zhang", "ok")
    ]
    with pytest.raises(AccountError, match="锁定"):
        facade.login("zhang", "correct horse")


def test_single_sign_on_opens_only_an_allow_listed_verified_enabled_account(tmp_path):
    """The facade half of st.login (the browser half: tests/test_browser_sso.py, a mock OIDC provider)."""
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("admin1", "admin", "correct horse")
    facade.add_user("li", "hr", "correct horse", email="Li@Example.com", actor=ADMIN)
    facade.add_user("zhao", "employee", "correct horse", email="zhao@example.com", actor=ADMIN)
    facade.set_user_disabled("zhao", True, actor=ADMIN)
    token = facade.login_by_email(" li@example.com ", verified=True)  # compared without case or spaces
    assert facade.session_principal(token) == Principal("li", "hr")
    for claim in (False, "false", "true", 1, None):  # only a real True opens an account
        with pytest.raises(AccountError, match="没有确认这个邮箱"):
            facade.login_by_email("li@example.com", verified=claim)
    with pytest.raises(AccountError, match="没有对应的账户"):
        facade.login_by_email("stranger@example.com", verified=True)
    with pytest.raises(AccountError, match="该账户已停用"):  # as a password login is told (review 52q3 #3)
        facade.login_by_email("zhao@example.com", verified=True)
    with pytest.raises(AccountError, match="没有提供邮箱"):
        facade.login_by_email("", verified=True)
    rows = list(reversed(facade.audit_entries(action="login", actor=ADMIN)))
    # one row per attempt; an address that opened nothing is a keyed tag per address, in the target and the actor alike
    li, stranger = facade.accounts.unknown_email("li@example.com"), facade.accounts.unknown_email("stranger@example.com")
    assert li.startswith("未知邮箱#") and li != stranger
    assert [(r.actor, r.target, r.outcome) for r in rows] == (
        [("li", "li", "ok")] + [(li, li, "failed")] * 5 + [(stranger, stranger, "failed")]
        + [("zhao", "zhao", "failed"), ("单点登录", "", "failed")]
    )


def test_one_address_belongs_to_one_account_whatever_its_case(tmp_path):
    """Otherwise by_email could open the administrator's account for an employee's address."""
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("boss", "admin", "correct horse", email="Li@Example.com")
    with pytest.raises(AccountError, match="已属于用户“boss”"):
        store.add("li", "employee", "correct horse", email="li@example.com")
    with sqlite3.connect(tmp_path / "accounts.sqlite3") as db:  # the index holds even past the check
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO users (name, role, email, password_hash, created_at) VALUES ('x', 'employee', 'LI@example.com', 'h', 'now')")
    assert store.by_email("LI@EXAMPLE.COM").name == "boss"


def test_a_store_from_before_the_rule_with_one_address_twice_opens_and_refuses_it(tmp_path):
    """Two accounts that differ only in the address's case: the store opens, neither signs on, no third is added."""
    path = tmp_path / "store" / "accounts.sqlite3"
    path.parent.mkdir()
    AccountStore(path)  # the schema
    with sqlite3.connect(path) as db:  # as an older version could leave it
        db.execute("DROP INDEX users_email_nocase")
        for name, email in (("li", "li@example.com"), ("boss", "Li@Example.com")):
            db.execute(
                "INSERT INTO users (name, role, email, password_hash, created_at) VALUES (?, 'employee', ?, 'h', 'now')",
                (name, email),
            )
    store = AccountStore(path)  # no crash although the case-blind index cannot be built
    with pytest.raises(AccountError, match="已属于用户“boss”“li”"):
        store.add("third", "employee", "correct horse", email="LI@EXAMPLE.COM")
    facade = fake_assistant(tmp_path / "store")
    with pytest.raises(AccountError, match="属于多个账户"):
        facade.login_by_email("li@example.com", verified=True)


def test_an_employee_cannot_manage_accounts(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("admin1", "admin", "correct horse")
    with pytest.raises(PermissionDenied):
        facade.add_user("li", "admin", "correct horse", actor=Principal("zhang", "employee"))
    with pytest.raises(PermissionDenied):
        facade.list_users(actor=Principal("zhang", "hr"))


@pytest.mark.parametrize("name", ["local", "default", "system", "Local"])
def test_the_names_the_engine_stores_under_are_reserved(store, name):
    """An account named local inherited the desktop user's conversations and memories (helper-40 2)."""
    with pytest.raises(AccountError, match="保留"):
        store.add(name, "employee", "correct horse")


def test_an_account_made_before_the_names_were_reserved_cannot_log_in(store, tmp_path):
    """It would read the desktop user's conversations and memories (helper-44 10)."""
    with sqlite3.connect(tmp_path / "accounts.sqlite3") as db:
        db.execute("UPDATE users SET name = 'local' WHERE name = 'zhang'")
    assert store.authenticate("local", "correct horse").outcome == "disabled"


def test_the_first_account_is_an_administrator(tmp_path):
    """Team mode starts with the first account: with no administrator, nobody could manage accounts on the web."""
    facade = fake_assistant(tmp_path / "store")
    with pytest.raises(AccountError, match="第一个账户必须是管理员"):
        facade.add_user("wang", "employee", "correct horse battery")
    assert not facade.team_mode
    facade.add_user("boss", "admin", "correct horse battery")
    assert facade.add_user("wang", "employee", "correct horse battery", actor=ADMIN).role == "employee"


def test_the_last_active_administrator_is_neither_demoted_nor_disabled(tmp_path):
    """Nobody could manage accounts from the web after it (helper-42 4, helper-40 8); with a second
    active admin both changes go through."""
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("admin1", "admin", "correct horse")
    facade.add_user("zhang", "employee", "correct horse", actor=ADMIN)
    with pytest.raises(AccountError, match="最后一位在用的管理员"):
        facade.set_user_role("admin1", "employee", actor=ADMIN)
    with pytest.raises(AccountError, match="最后一位在用的管理员"):
        facade.accounts.set_disabled("admin1")  # the CLI's path: it acts as the data dir's owner
    assert facade.accounts.get("admin1").role == "admin" and not facade.accounts.get("admin1").disabled
    facade.add_user("admin2", "admin", "correct horse", actor=ADMIN)
    facade.set_user_disabled("admin2", actor=ADMIN)  # a disabled admin does not count as one left
    with pytest.raises(AccountError):
        facade.set_user_role("admin1", "hr", actor=ADMIN)
    facade.set_user_disabled("admin2", False, actor=ADMIN)
    assert facade.set_user_role("admin1", "hr", actor=Principal("admin2", "admin")).role == "hr"


# -- the command line ----------------------------------------------------------------


@pytest.fixture()
def cli(monkeypatch, capsys, tmp_path):
    store = tmp_path / "store"
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))

    def run(*args: str, stdin: str = ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        return invoke(capsys, "--data-dir", str(store), *args)

    return run


def test_users_add_reads_the_password_twice_from_stdin(cli):
    result = cli("users", "add", "wang", "--role", "admin", stdin="correct horse\ncorrect horse\n")
    assert result.exit_code == 0 and "第一个账户" in result.stdout
    added = cli("users", "add", "zhao", "--role", "employee", "--audience", "managers", stdin="battery staple\nbattery staple\n")
    assert added.exit_code == 0
    listed = cli("users", "list", "--json").json()["users"]
    assert [(u["name"], u["role"], u["audiences"]) for u in listed] == [("wang", "admin", []), ("zhao", "employee", ["managers"])]
    assert "argon2" not in json.dumps(listed) and "correct horse" not in json.dumps(listed)


def test_mismatched_passwords_are_refused_and_nothing_is_added(cli):
    result = cli("users", "add", "wang", "--role", "admin", stdin="correct horse\ncorrect hoarse\n")
    assert result.exit_code == 1 and "不一致" in result.stderr
    assert cli("users", "list", "--json").json()["users"] == []


def test_a_password_is_never_accepted_in_argv(cli):
    with pytest.raises(SystemExit):
        cli("users", "add", "wang", "--role", "admin", "--password", "correct horse")


def test_disable_and_reset_password_from_the_cli(cli):
    cli("users", "add", "wang", "--role", "admin", stdin="correct horse\ncorrect horse\n")
    cli("users", "add", "zhang", "--role", "employee", stdin="correct horse\ncorrect horse\n")
    assert cli("users", "disable", "zhang").exit_code == 0
    assert cli("users", "list", "--json").json()["users"][1]["disabled"] is True
    assert cli("users", "reset-password", "zhang", stdin="battery staple\nbattery staple\n").exit_code == 0
    assert cli("users", "disable", "nobody").exit_code == 1


def test_the_cli_acts_as_the_local_administrator_once_accounts_exist(cli, tmp_path):
    cli("users", "add", "wang", "--role", "admin", stdin="correct horse\ncorrect horse\n")
    policy = tmp_path / "leave.md"
    policy.write_text("# 休假制度\n\n第一条 年假 5 天。\n", encoding="utf-8")
    assert cli("ingest", str(policy), "--audience", "hr").exit_code == 0
    assert [d["doc_id"] for d in cli("docs", "list", "--json").json()["documents"]] == ["leave"]


def test_help_says_the_cli_is_the_local_administrator(capsys):
    with pytest.raises(SystemExit):
        rag_core.cli.main(["--help"])
    assert "本机管理员" in capsys.readouterr().out


# -- serving beyond this machine ------------------------------------------------------


def test_serving_beyond_localhost_without_accounts_is_refused_with_the_way_out(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path / "store")}
    command = [sys.executable, "-m", "rag_core.accounts.serving"]
    refused = subprocess.run([*command, "--server.address", "0.0.0.0"], env=env, capture_output=True, text=True)
    assert refused.returncode == 1
    assert "python -m rag_core users add" in refused.stderr and "--role admin" in refused.stderr
    assert subprocess.run([*command, "--server.port", "8502"], env=env).returncode == 0  # desktop: loopback
    assert subprocess.run([*command, "--server.address=127.0.0.1"], env=env).returncode == 0
    AccountStore(tmp_path / "store" / "accounts.sqlite3").add("wang", "admin", "correct horse")
    assert subprocess.run([*command, "--server.address", "0.0.0.0"], env=env).returncode == 0


def test_the_app_refuses_the_same_way(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    assert facade.serving_refusal("127.0.0.1") is None
    assert "所有网络接口" in facade.serving_refusal(None)  # unset: Streamlit listens on every interface
    assert "users add" in facade.serving_refusal("0.0.0.0")
    facade.add_user("wang", "admin", "correct horse")
    assert facade.serving_refusal("0.0.0.0") is None and facade.serving_refusal(None) is None


def test_desktop_config_binds_to_loopback():
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"


def test_memory_commands_with_user_refuse_another_persons_memory_id(cli):
    theirs = cli("memory", "add", "我负责薪酬核算", "--user", "li", "--json").json()["id"]
    refused = cli("memory", "delete", theirs, "--user", "zhang")
    assert refused.exit_code == 1 and "没有权限" in refused.stderr
    assert cli("memory", "set-importance", theirs, "0.1", "--user", "zhang").exit_code == 1
    assert [m["id"] for m in cli("memory", "list", "--user", "li", "--json").json()["memories"]] == [theirs]
    assert cli("memory", "delete", theirs, "--user", "li").exit_code == 0  # the owner may


def test_a_secret_another_opener_wrote_meanwhile_is_kept(tmp_path, monkeypatch):
    """Two requests opening a new account store at once (seen in CI as UNIQUE constraint failed): the second
    opener's secret arrives between this one's look and its write; both must end up with the same key."""
    import rag_core.accounts.store as store_module

    path = tmp_path / "accounts.sqlite3"
    theirs, ours = "ab" * 32, "cd" * 32

    def another_opener_wins(_nbytes: int) -> str:
        with sqlite3.connect(path) as other:
            other.execute("INSERT INTO meta VALUES ('secret', ?)", (theirs,))
        return ours

    monkeypatch.setattr(store_module.secrets, "token_hex", another_opener_wins)
    store = AccountStore(path)
    assert store._secret == bytes.fromhex(theirs)  # every session token is signed with one key
