"""An administrator logs out on 用户管理 and an employee logs in on the same tab: the employee lands on 问答, and the
audit has no refusal they never asked for (the UX walkthrough of stop 58). A page the person opens by hand, or typed
as an address while logged out, is still refused, and audited (review 213)."""

from __future__ import annotations

import pytest
from app_support import point_the_app_at, submit_login
from fakes import fake_assistant

from rag_core.types import Principal

APP = "../app.py"
ADMIN = Principal("wang", "admin")


@pytest.fixture()
def tab(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "s")
    a.add_user("wang", "admin", "correct horse", actor=ADMIN)
    a.add_user("zhang", "employee", "correct horse", actor=ADMIN)
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()  # as app_support.log_in: the cookie check's run, then the form
    return a, at


def _refusals(a) -> list:
    return [e for e in a.audit_entries(action="refused", actor=ADMIN) if "用户管理" in e.target]


def test_the_next_person_on_a_tab_left_on_an_admin_page_lands_on_chat(tab):
    a, at = tab
    submit_login(at, "wang", "correct horse")
    at.switch_page("pages/users.py").run()
    next(b for b in at.sidebar.button if b.label == "退出登录").click().run()
    submit_login(at, "zhang", "correct horse")
    assert not any("没有权限" in e.value for e in at.error)
    assert at.chat_input, "lands on 问答"
    assert not _refusals(a)
    at.switch_page("pages/users.py").run()  # asked for by hand: refused, and audited
    assert any("没有权限" in e.value for e in at.error) and _refusals(a)


def test_an_address_typed_while_logged_out_is_refused_and_audited(tab):
    a, at = tab
    at.switch_page("pages/users.py").run()  # a bookmark of 用户管理, opened logged out
    submit_login(at, "zhang", "correct horse")
    assert any("没有权限" in e.value for e in at.error) and _refusals(a)
