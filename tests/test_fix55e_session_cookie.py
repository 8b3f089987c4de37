"""A session cookie that is not ASCII (another app on the host can set one) is no session: the login form shows,
where the signing raised and every page showed an English traceback (review 55e, defect 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import logged_in_with
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal
from rag_core.accounts.store import AccountStore

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
ODD_TOKENS = ["é.x", "abc.é", "é", "ａｂｃ.ｄｅｆ", "abc.\udcff", "a\x00b.cd", "abc.def", ".", "x" * 5000 + ".y"]


@pytest.mark.parametrize("token", ODD_TOKENS)
def test_an_odd_token_resolves_to_nobody(tmp_path, token):
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("zhang", "employee", PASSWORD)
    real = store.open_session("zhang")
    assert store.resolve_session(token) is None
    store.close_session(token)  # ends nothing, raises nothing
    assert store.resolve_session(real).name == "zhang"


def test_the_facade_answers_none_for_a_non_ascii_token(tmp_path):
    team = fake_assistant(tmp_path / "store")
    team.add_user("wang", "admin", PASSWORD)
    assert team.session_principal("abc.é") is None
    team.logout("é.x")


def test_a_non_ascii_cookie_shows_the_login_form(tmp_path, monkeypatch):
    import ui.login

    team = fake_assistant(tmp_path / "store")
    team.add_user("wang", "admin", PASSWORD)
    logged_in_with(team, str(ROOT / "app.py"), "wang", PASSWORD, tmp_path, monkeypatch)  # the app wired to `team`
    monkeypatch.setattr(ui.login, "_cookie_token", lambda: "é.x")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "用户名" in [t.label for t in at.text_input]
