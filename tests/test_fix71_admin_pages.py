"""Review 391 (administrators' pages) on the pages: a role chosen for one account is not the next one's; a refused
action leaves the rest of the row drawn; the first account made on the desktop default is said at the login form."""

from __future__ import annotations

import pytest
from app_support import submit_login
from fakes import fake_assistant
from test_pages_forms import LOCAL, button, logged_in_admin, open_page

pytestmark = pytest.mark.page


def _admin_with_two(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123", actor=LOCAL)
    a.add_user("li", "employee", "Zq8!wide-open", actor=LOCAL)
    a.add_user("zhang", "employee", "Zq8!wide-open", actor=LOCAL)
    return a, logged_in_admin(a, tmp_path, monkeypatch, "pages/users.py")


def test_a_role_chosen_for_one_account_is_not_saved_for_the_next(tmp_path, monkeypatch) -> None:
    a, at = _admin_with_two(tmp_path, monkeypatch)
    account = lambda: next(s for s in at.selectbox if s.label == "账户")  # noqa: E731
    new_role = lambda: next(s for s in at.selectbox if s.label == "新角色")  # noqa: E731
    account().set_value("li").run()
    new_role().set_value("admin").run()
    account().set_value("zhang").run()
    assert new_role().value == "employee"
    assert button(at, "保存角色").disabled
    assert a.accounts.get("zhang").role == "employee"


def test_a_refused_password_reset_leaves_the_rest_of_the_row(tmp_path, monkeypatch) -> None:
    _, at = _admin_with_two(tmp_path, monkeypatch)
    next(s for s in at.selectbox if s.label == "账户").set_value("li").run()
    for box in at.text_input:
        if (box.key or "").startswith("users_reset_"):
            box.set_value("12345678")
    button(at, "重置并解除锁定").click().run()
    assert not at.exception
    assert any("密码" in e.value for e in at.error)
    assert "单点登录邮箱" in [t.label for t in at.text_input]


def test_the_first_account_made_on_the_desktop_is_said_at_the_login_form(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    at = open_page(a, tmp_path, monkeypatch, "pages/users.py")
    boxes = at.text_input  # 用户名, 初始密码, 邮箱, 再输入一次
    boxes[0].set_value("boss")
    boxes[1].set_value("Xk9#pLm2qq")
    boxes[3].set_value("Xk9#pLm2qq")
    next(s for s in at.selectbox if s.label == "角色").set_value("admin")
    button(at, "新建").click().run()
    assert a.accounts.get("boss") is not None
    assert any("已新建账户：boss" in s.value and "登录" in s.value for s in at.success), [s.value for s in at.success]
    submit_login(at, "boss", "Xk9#pLm2qq")
    assert not any("已新建账户：boss" in s.value and "请用这个账户登录" in s.value for s in at.success)  # said once
