"""An administrator logs out on 用户管理 and an employee logs in on the same tab: the employee lands on 问答, and the
audit has no refusal they never asked for (the UX walkthrough of stop 58). A page the person then opens by hand
is still refused, and audited."""

from __future__ import annotations

from app_support import point_the_app_at, submit_login
from fakes import fake_assistant

from rag_core.types import Principal

APP = "../app.py"
ADMIN = Principal("wang", "admin")


def test_a_login_on_a_page_the_person_may_not_use_lands_on_chat(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "s")
    a.add_user("wang", "admin", "correct horse", actor=ADMIN)
    a.add_user("zhang", "employee", "correct horse", actor=ADMIN)
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/users.py").run()  # the tab the administrator left on 用户管理
    submit_login(at, "zhang", "correct horse")
    assert not any("没有权限" in e.value for e in at.error)
    assert at.chat_input, "lands on 问答"
    assert not [e for e in a.audit_entries(action="refused", actor=ADMIN) if "用户管理" in e.target]
    at.switch_page("pages/users.py").run()  # asked for by hand: refused, and audited
    assert any("没有权限" in e.value for e in at.error)
    assert [e for e in a.audit_entries(action="refused", actor=ADMIN) if "用户管理" in e.target]
