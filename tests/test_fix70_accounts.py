"""Review 380: the account file that cannot be written, a busy logout, an address with an invisible character,
an API key no request can carry."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from app_support import logged_in_with
from fakes import fake_assistant

from rag_core.errors import AccountError, RagError, SettingsError, StoreBusy, StoreDamaged
from rag_core.settings import Settings

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _read_only_error(tmp_path: Path) -> sqlite3.OperationalError:
    """SQLite's own error for a write to a file opened read-only, as a disk remounted read-only gives it."""
    path = tmp_path / "ro.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        db.execute("INSERT INTO t VALUES (1)")
    except sqlite3.OperationalError as exc:
        return exc
    finally:
        db.close()
    raise AssertionError("a read-only connection wrote")


def test_a_login_on_an_account_file_that_cannot_be_written_is_one_chinese_line(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    boss = a.add_user("boss", "admin", "Str0ng!pass")
    error = _read_only_error(tmp_path)

    def read_only(*args, **kwargs):
        raise error

    monkeypatch.setattr(a.accounts, "authenticate", read_only)
    with pytest.raises(StoreDamaged) as refused:
        a.login("boss", "Str0ng!pass")
    assert not isinstance(refused.value, StoreBusy)
    assert "accounts.sqlite3" in str(refused.value) and "只读" in str(refused.value)
    assert any(e.action == "login" and e.outcome == "failed" for e in a.audit_entries(actor=boss.principal))


def test_logout_while_the_account_file_is_busy_says_it_did_not_happen(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "Str0ng!pass")
    at = logged_in_with(a, APP, "boss", "Str0ng!pass", tmp_path, monkeypatch)
    other = sqlite3.connect(tmp_path / "store" / "accounts.sqlite3", timeout=0)  # another process writing
    other.execute("BEGIN IMMEDIATE")
    try:
        next(b for b in at.sidebar.button if b.label == "退出登录").click().run()
    finally:
        other.rollback()
        other.close()
    assert not at.exception
    assert any("没有退出登录" in e.value for e in at.sidebar.error), [e.value for e in at.error]
    assert any(b.label == "退出登录" for b in at.sidebar.button)  # still logged in, and can try again


@pytest.mark.parametrize("invisible", ["\u200b", "\u00ad", "\u2060"])
def test_a_sign_on_address_with_an_invisible_character_is_refused(tmp_path, invisible: str) -> None:
    a = fake_assistant(tmp_path / "store")
    boss = a.add_user("boss", "admin", "Str0ng!pass")
    a.add_user("wangwei", "employee", "Str0ng!pass", actor=boss.principal)
    with pytest.raises(AccountError, match="看不见的字符"):
        a.set_user_email("wangwei", f"wang{invisible}@corp.cn", actor=boss.principal)
    a.set_user_email("wangwei", "wang@corp.cn", actor=boss.principal)
    assert a.session_principal(a.login_by_email("wang@corp.cn", verified=True)).user == "wangwei"


@pytest.mark.parametrize("key", ["sk-live-4f9a…c2e1", "sk-ｌive-4f9a", "sk-live 4f9a", "éclair-key"])
def test_an_api_key_no_request_can_carry_is_refused_at_start(tmp_path, key: str) -> None:
    with pytest.raises(SettingsError, match="LLM_API_KEY") as refused:
        Settings(data_dir=tmp_path, llm_api_key=key, llm_model_id="m").validate()
    assert key not in str(refused.value)  # never quoted
    Settings(data_dir=tmp_path, llm_api_key="sk-live-4f9a_c2e1.X~", llm_model_id="m").validate()
    assert issubclass(SettingsError, RagError)


def test_a_sign_on_refused_by_a_busy_account_file_is_audited_as_failed(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    boss = a.add_user("boss", "admin", "Str0ng!pass")
    a.add_user("wangwei", "employee", "Str0ng!pass", actor=boss.principal)
    a.set_user_email("wangwei", "wang@corp.cn", actor=boss.principal)
    other = sqlite3.connect(tmp_path / "store" / "accounts.sqlite3", timeout=0)  # another process writing
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreDamaged):
            a.login_by_email("wang@corp.cn", verified=True)
    finally:
        other.rollback()
        other.close()
    rows = [e for e in a.audit_entries(actor=boss.principal) if e.action == "login" and e.target == "wangwei"]
    assert rows and all(e.outcome == "failed" for e in rows), rows


def test_an_address_stored_before_the_rule_with_an_invisible_character_still_signs_on(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    boss = a.add_user("boss", "admin", "Str0ng!pass")
    a.add_user("wangwei", "employee", "Str0ng!pass", actor=boss.principal)
    with sqlite3.connect(tmp_path / "store" / "accounts.sqlite3") as db:  # as an older version stored it
        db.execute("UPDATE users SET email = ? WHERE name = 'wangwei'", ("wang\u200b@corp.cn",))
    assert a.session_principal(a.login_by_email("wang@corp.cn", verified=True)).user == "wangwei"


def test_the_exact_owner_of_an_address_signs_on_beside_an_older_look_alike(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    boss = a.add_user("boss", "admin", "Str0ng!pass")
    for name in ("wangwei", "wangwu"):
        a.add_user(name, "employee", "Str0ng!pass", actor=boss.principal)
    a.set_user_email("wangwei", "wang@corp.cn", actor=boss.principal)
    with sqlite3.connect(tmp_path / "store" / "accounts.sqlite3") as db:  # an older store's look-alike
        db.execute("UPDATE users SET email = ? WHERE name = 'wangwu'", ("wang\u00ad@corp.cn",))
    assert a.session_principal(a.login_by_email("wang@corp.cn", verified=True)).user == "wangwei"
