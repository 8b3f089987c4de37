"""用户管理 and 审计日志 defects of review 63 (rev-admin), through AppTest with the fake-embedder facade.
Each test failed before its fix.

2. The 操作人 filter matched the stored name exactly: alice found nothing for the account Alice.
4. An administrator resetting their own password saw 登录已失效…没有执行 beside 密码已重置… and then the login page:
   the reset ended every session of theirs, this browser's too, and the same run's email popover acted once more.
   Now this browser's login is kept (as 我的账户's own-password form keeps it); their other logins end.
5. 保存角色 ended the account's sessions even when nothing changed, and warned nobody changing their own audiences.
   Now an unchanged form says 没有改动 and cannot be saved; one's own audiences changing asks first, as a role does;
   the engine ends sessions only when the role or the audiences change.
1. (page side) An account holding a label the form does not offer (finance, made on the command line) keeps it.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant
from test_pages_forms import LOCAL, button, logged_in_admin

PW = "Zq8!wide-open"


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", "password123", actor=LOCAL)
    a.add_user("boss2", "admin", "password123", actor=LOCAL)
    a.add_user("li", "employee", PW, actor=LOCAL)
    return a


def shown(at) -> list[str]:
    return [e.value for kind in ("error", "warning", "success", "info") for e in at.get(kind)]


def choose(at, name: str):
    return next(s for s in at.selectbox if s.label == "账户").set_value(name).run()


def test_resetting_ones_own_password_keeps_this_login_and_ends_the_others(team, tmp_path, monkeypatch):
    elsewhere = team.login("boss", "password123")
    at = choose(logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py"), "boss")
    for box in at.text_input:
        if (box.key or "").startswith(("users_reset_", "reset_")):
            box.set_value("Brand-new-pw9")
    button(at, "重置并解除锁定").click().run()
    assert not at.exception
    assert not at.error, shown(at)
    assert any("密码已重置" in s.value for s in at.success)
    assert team.session_principal(elsewhere) is None  # a login elsewhere (maybe stolen) ends
    choose(at, "li")
    assert [t.value for t in at.title] == ["用户管理"] and not at.error, shown(at)
    assert team.session_principal(team.login("boss", "Brand-new-pw9")).user == "boss"


def test_resetting_another_persons_password_ends_all_their_logins(team, tmp_path, monkeypatch):
    token = team.login("li", PW)
    at = choose(logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py"), "li")
    for box in at.text_input:
        if (box.key or "").startswith(("users_reset_", "reset_")):
            box.set_value("Brand-new-pw9")
    button(at, "重置并解除锁定").click().run()
    assert not at.error, shown(at)
    assert team.session_principal(token) is None


def test_an_unchanged_role_cannot_be_saved_and_logs_nobody_out(team, tmp_path, monkeypatch):
    token = team.login("li", PW)
    at = choose(logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py"), "li")
    assert button(at, "保存角色").disabled
    assert "没有改动" in shown(at)
    next(s for s in at.selectbox if s.label == "新角色").set_value("hr").run()
    assert not button(at, "保存角色").disabled
    assert team.session_principal(token) is not None


def test_the_engine_ends_sessions_only_when_the_role_or_audiences_change(team):
    token = team.login("li", PW)
    boss = team.session_principal(team.login("boss", "password123"))
    team.set_user_role("li", "employee", [], actor=boss)
    assert team.session_principal(token) is not None
    team.set_user_role("li", "employee", ["managers"], actor=boss)
    assert team.session_principal(token) is None


def test_changing_ones_own_audiences_asks_first(team, tmp_path, monkeypatch):
    at = choose(logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py"), "boss")
    assert not any(c.label == "我确认修改自己的角色" for c in at.checkbox)
    [m for m in at.multiselect if m.label == "额外可读受众"][-1].set_value(["managers"]).run()  # the popover's, not the new-account form's
    assert button(at, "保存角色").disabled
    assert any(c.label == "我确认修改自己的角色" for c in at.checkbox)
    assert team.accounts.get("boss").audiences == ()


def test_a_label_the_form_does_not_offer_is_kept(team, tmp_path, monkeypatch):
    team.set_user_role("li", "employee", ["finance"], actor=LOCAL)
    at = choose(logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py"), "li")
    assert not at.exception, [str(e.value)[:120] for e in at.exception]
    assert "finance" in next(m for m in at.multiselect if m.label == "额外可读受众" and m.value).value
    assert button(at, "保存角色").disabled


def test_the_audit_filter_finds_the_account_a_folded_name_means(team, tmp_path, monkeypatch):
    team.add_user("Alice", "employee", PW, actor=LOCAL)
    team.login("alice", PW)
    at = logged_in_admin(team, tmp_path, monkeypatch, "pages/audit.py")
    next(t for t in at.text_input if t.label.startswith("操作人")).set_value("alice").run()
    actors = set(at.dataframe[0].value["操作人"])
    assert actors == {"Alice"}


def test_the_reset_boxes_are_empty_for_the_next_account(team, tmp_path, monkeypatch):
    """Review 342 #3: the boxes kept li's new password, and one click on the next account chosen gave it to boss."""
    at = choose(logged_in_admin(team, tmp_path, monkeypatch, "pages/users.py"), "li")
    for box in at.text_input:
        if (box.key or "").startswith(("users_reset_", "reset_")):
            box.set_value("Brand-new-pw9")
    button(at, "重置并解除锁定").click().run()
    assert any("密码已重置" in s.value for s in at.success)
    choose(at, "boss")  # its own boxes (the browser also empties a form once sent: clear_on_submit)
    assert all(not box.value for box in at.text_input if (box.key or "").startswith(("users_reset_", "reset_")))
    button(at, "重置并解除锁定").click().run()
    assert any("两次输入的密码" in e.value or "密码" in e.value for e in at.error), shown(at)
    assert team.session_principal(team.login("boss", "password123")).user == "boss"  # boss's password unchanged
