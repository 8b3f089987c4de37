"""People change their own password (review 52l, defect 7): only an administrator's reset existed, so an
administrator knew every password. The facade checks the current one and the rules, ends the person's other
sessions and leaves one audit row; the 我的账户 page holds the form."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import logged_in_with
from fakes import fake_assistant

from rag_core import AccountError, Principal

LOCAL = Principal("local", "admin")
BOSS, LI = Principal("boss", "admin"), Principal("li", "employee")
APP = str(Path(__file__).resolve().parent.parent / "app.py")


def team(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "correct horse", actor=LOCAL)
    assistant.add_user("li", "employee", "correct horse", actor=BOSS)
    return assistant


def test_an_employee_changes_their_own_password_and_other_sessions_end(tmp_path):
    assistant = team(tmp_path)
    here, elsewhere = assistant.login("li", "correct horse"), assistant.login("li", "correct horse")
    assistant.change_own_password("correct horse", "battery staple", actor=LI, keep_token=here)
    assert assistant.session_principal(here) == LI and assistant.session_principal(elsewhere) is None
    with pytest.raises(AccountError):
        assistant.login("li", "correct horse")
    assert assistant.session_principal(assistant.login("li", "battery staple")) == LI
    row = assistant.audit_entries(action="password.change", actor=BOSS)[0]
    assert (row.actor, row.target, row.outcome) == ("li", "li", "ok")
    assert "battery" not in row.detail


def test_a_wrong_current_password_or_a_trivial_new_one_changes_nothing(tmp_path):
    assistant = team(tmp_path)
    with pytest.raises(AccountError, match="当前密码不正确"):
        assistant.change_own_password("not my password", "battery staple", actor=LI)
    with pytest.raises(AccountError, match="常见"):
        assistant.change_own_password("correct horse", "password", actor=LI)
    with pytest.raises(AccountError, match="相同"):
        assistant.change_own_password("correct horse", "correct horse", actor=LI)
    assert assistant.session_principal(assistant.login("li", "correct horse")) == LI
    rows = [(r.outcome, r.target) for r in assistant.audit_entries(action="password.change", actor=BOSS)]
    assert rows == [("failed", "li")] * 3


def test_a_person_changes_only_their_own_password(tmp_path):
    """The actor is the person changed: li naming boss's current password still changes li's (and fails)."""
    assistant = team(tmp_path)
    with pytest.raises(AccountError, match="当前密码不正确"):
        assistant.change_own_password("correct horse!", "battery staple", actor=LI)
    assert assistant.session_principal(assistant.login("boss", "correct horse")) == BOSS


def test_the_desktop_user_has_no_password_to_change(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    with pytest.raises(AccountError, match="桌面模式"):
        assistant.change_own_password("x" * 8, "battery staple", actor=LOCAL)


def account_page(assistant, tmp_path, monkeypatch):
    """li logged in through the app's form, then on 我的账户."""
    return logged_in_with(assistant, APP, "li", "correct horse", tmp_path, monkeypatch).switch_page("pages/account.py").run()


def _form(at):
    boxes = {t.label: t for t in at.text_input}
    return boxes, next(b for b in at.button if b.label == "修改密码")


def test_the_account_page_changes_the_password_of_whoever_is_logged_in(tmp_path, monkeypatch):
    assistant = team(tmp_path)
    at = account_page(assistant, tmp_path, monkeypatch)
    assert not at.exception and at.title[0].value == "我的账户"
    boxes, submit = _form(at)
    boxes["当前密码"].set_value("correct horse")
    boxes["新密码"].set_value("battery staple")
    boxes["再次输入新密码"].set_value("battery staple")
    submit.click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "密码已修改" in at.success[0].value
    assert assistant.session_principal(assistant.login("li", "battery staple")) == LI
    at.run()  # the page's own session was kept: still logged in, the form is shown again
    assert at.title[0].value == "我的账户" and "当前密码" in [t.label for t in at.text_input]


def test_the_account_page_says_what_is_wrong(tmp_path, monkeypatch):
    assistant = team(tmp_path)
    at = account_page(assistant, tmp_path, monkeypatch)
    boxes, submit = _form(at)
    boxes["当前密码"].set_value("correct horse")
    boxes["新密码"].set_value("battery staple")
    boxes["再次输入新密码"].set_value("battery stapel")
    submit.click().run()
    assert "不一致" in at.error[0].value
    boxes, submit = _form(at)
    boxes["当前密码"].set_value("wrong wrong")
    boxes["新密码"].set_value("battery staple")
    boxes["再次输入新密码"].set_value("battery staple")
    submit.click().run()
    assert "当前密码不正确" in at.error[0].value
    assert assistant.session_principal(assistant.login("li", "correct horse")) == LI
