"""A tab's button acts as the person logged in now, not as the principal the page was drawn for: Streamlit runs a
button's callback before the page script, so before the login gate checks the session again (rev-admin defect 2:
an account disabled or demoted while its tab was open still added a standard answer)."""
from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with, point_the_app_at
from fakes import fake_assistant

from rag_core import Principal

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
ADMIN = Principal("wang", "admin")
PASSWORD = "correct horse"


def _hr_on_standard_page(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", PASSWORD)
    a.add_user("lihr", "hr", PASSWORD, actor=ADMIN)
    at = logged_in_with(a, APP, "lihr", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/standard_answers.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return a, at


def _add(at, question="公司有班车吗", answer="有，每天两班。"):
    at.text_input(key="standard_question").set_value(question)
    at.text_area(key="standard_answer").set_value(answer)
    next(b for b in at.button if b.label == "添加").click().run()
    assert not at.exception, [e.value for e in at.exception]


def _stored(a):
    return [e.question for e in a.standard_answers(actor=ADMIN)]


def _login_form_shown(at) -> bool:
    return any(b.label == "登录" for b in at.button)


def test_a_disabled_account_adds_nothing_from_its_open_tab(tmp_path, monkeypatch):
    a, at = _hr_on_standard_page(tmp_path, monkeypatch)
    a.set_user_disabled("lihr", True, actor=ADMIN)
    _add(at)
    assert _stored(a) == []
    assert _login_form_shown(at)


def test_a_demoted_account_adds_nothing_from_its_open_tab(tmp_path, monkeypatch):
    a, at = _hr_on_standard_page(tmp_path, monkeypatch)
    a.set_user_role("lihr", "employee", actor=ADMIN)
    _add(at)
    assert _stored(a) == []
    assert _login_form_shown(at)


def test_an_ended_session_adds_nothing_from_its_open_tab(tmp_path, monkeypatch):
    """The account is unchanged (the engine finds nothing wrong with the principal): the password was reset, which
    ends its sessions; the tab's session is checked at the click."""
    a, at = _hr_on_standard_page(tmp_path, monkeypatch)
    a.reset_user_password("lihr", "another horse", actor=ADMIN)
    _add(at)
    assert _stored(a) == []
    assert _login_form_shown(at)


def test_a_desktop_tab_acts_no_more_once_the_first_account_exists(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "store")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/standard_answers.py").run()
    assert not at.exception, [e.value for e in at.exception]
    a.add_user("wang", "admin", PASSWORD)  # the desktop's person made the first account (another tab, the CLI)
    _add(at)
    assert _stored(a) == []
    assert _login_form_shown(at)


def test_a_live_session_still_adds(tmp_path, monkeypatch):
    a, at = _hr_on_standard_page(tmp_path, monkeypatch)
    _add(at)
    assert _stored(a) == ["公司有班车吗"]
