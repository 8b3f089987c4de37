"""Team mode in the app, driven by AppTest on the real engine: the login gate and what each role sees.

One data dir (a copy of the session's indexed sample store plus an HR-only policy)
with three accounts. Before login no page shows data; an employee never reaches
HR-only text through chat, the trace, near misses, the documents page or a page URL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_support import facade, point_the_app_at, submit_login
from conftest import copy_store
from streamlit.testing.v1 import AppTest

from rag_core import Principal

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
RUN_TIMEOUT = 600
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
HR_ONLY = "# 薪酬保密制度\n\n第一条 海豚补贴每月 800 元，发放名单仅限人事部门掌握。\n"
SECRET_WORDS = ("800 元", "仅限人事部门", "薪酬保密制度")  # in the HR-only text, not in any question
DATA_PAGES = ["pages/chat.py", "pages/documents.py", "pages/memories.py", "pages/retrieval_test.py",
              "pages/settings.py", "pages/users.py", "pages/audit.py"]
STAFF_FORBIDDEN = ["pages/documents.py", "pages/retrieval_test.py", "pages/settings.py", "pages/users.py", "pages/audit.py"]

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def data_dir(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = copy_store(sample_store, tmp_path_factory.mktemp("team_store") / "store")
    with pytest.MonkeyPatch.context() as patch:
        point_the_app_at(path, patch)
        a = facade()
        assert a.ingest_bytes(HR_ONLY.encode("utf-8"), "pay_secret.md", audience=["hr"]).ok
        a.add_user("wang", "admin", PASSWORD)  # the first account: team mode from here on
        a.add_user("li", "hr", PASSWORD, actor=ADMIN)
        a.add_user("zhang", "employee", PASSWORD, actor=ADMIN)
        a.add_user("locky", "employee", PASSWORD, actor=ADMIN)
        yield path


@pytest.fixture(autouse=True)
def app_environment(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_the_app_at(data_dir, monkeypatch)


def page_text(at: AppTest) -> str:
    parts: list[str] = []
    for kind in ("title", "markdown", "caption", "text", "code", "info", "warning", "error", "success"):
        parts.extend(str(el.value) for el in getattr(at, kind))
    parts.extend(el.label for el in at.expander)
    parts.extend(str(frame.value.to_string()) for frame in at.dataframe)
    parts.extend(str(el.value) for el in at.sidebar.markdown)
    return "\n".join(parts)


def fresh(page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=RUN_TIMEOUT)
    at.run()
    at.run()  # the first run goes through app.py, later ones run the page directly (see ui/layout.py)
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def log_in(at: AppTest, name: str, password: str = PASSWORD) -> AppTest:
    return submit_login(at, name, password)


def menu(at: AppTest) -> list[str]:
    """The pages the person's role opens (我的账户, under the name, is everyone's: test_s52_account_link_and_audit_offset)."""
    return [link.label for link in at.sidebar.get("page_link") if link.label != "我的账户"]


def menu_for(principal: Principal) -> list[str]:
    """The titles of the pages the permission table grants this person, in menu order."""
    from rag_core.facade.access import allowed
    from ui.layout import PAGES

    return [title for _path, title, _icon, permission in PAGES if allowed(principal, permission)]


@pytest.mark.parametrize("page", DATA_PAGES)
def test_before_login_no_page_shows_data(page: str) -> None:
    at = fresh(page)
    text = page_text(at)
    assert "登录" in text and "用户名" in [t.label for t in at.text_input]
    assert not at.chat_input and not at.dataframe and not at.sidebar.get("page_link")
    assert not any(word in text for word in (*SECRET_WORDS, "差旅", "年假"))


def test_a_wrong_password_is_refused() -> None:
    at = log_in(fresh(), "zhang", "not the password")
    assert "用户名或密码不正确" in page_text(at)
    assert not at.chat_input


def test_an_employee_sees_chat_and_own_memories_only() -> None:
    at = log_in(fresh(), "zhang")
    assert "制度问答" in page_text(at) and at.chat_input
    assert menu(at) == menu_for(Principal("zhang", "employee"))
    assert "问答" in menu(at) and "记忆管理" in menu(at)
    assert not {"文档管理", "检索测试", "设置", "用户管理", "审计日志"} & set(menu(at))
    assert "zhang" in page_text(at)


@pytest.mark.parametrize("page", STAFF_FORBIDDEN)
def test_an_employee_is_refused_a_page_typed_as_url(page: str) -> None:
    at = log_in(fresh(), "zhang")
    at.switch_page(page).run()
    text = page_text(at)
    assert "没有权限查看此页面" in text
    assert not at.dataframe and not any(word in text for word in SECRET_WORDS)


def test_an_employee_never_reaches_hr_only_text_through_chat_or_its_trace() -> None:
    at = log_in(fresh(), "zhang")
    at.chat_input[0].set_value("海豚补贴每月发多少？名单谁掌握？").run()
    assert not at.exception
    text = page_text(at)
    trace = at.session_state["chat_history"][-1]["trace"]
    shown = text + str(trace.to_dict())
    assert not any(word in shown for word in SECRET_WORDS)


def test_hr_sees_the_hr_only_document_and_its_chunks() -> None:
    at = log_in(fresh(), "li")
    assert menu(at) == menu_for(Principal("li", "hr"))
    assert {"文档管理", "检索测试"} <= set(menu(at)) and not {"设置", "用户管理", "审计日志"} & set(menu(at))
    at.switch_page("pages/documents.py").run()
    assert not at.exception
    assert "薪酬保密制度" in page_text(at)


def test_an_administrator_sees_users_and_audit() -> None:
    at = log_in(fresh(), "wang")
    assert menu(at) == menu_for(ADMIN) and {"设置", "用户管理", "审计日志"} <= set(menu(at))
    at.switch_page("pages/users.py").run()
    assert not at.exception and "zhang" in page_text(at)
    at.switch_page("pages/audit.py").run()
    assert not at.exception and "登录" in page_text(at)


def test_five_wrong_passwords_lock_the_account() -> None:
    at = fresh()
    for _ in range(5):
        log_in(at, "locky", "wrong password")
    assert "锁定" in page_text(at)
    log_in(at, "locky", PASSWORD)
    assert "锁定" in page_text(at) and not at.chat_input
    rows = [(e.action, e.outcome) for e in facade().audit_entries(user="locky", actor=ADMIN)]
    assert rows[:2] == [("login", "locked"), ("login", "locked")] and rows.count(("login", "failed")) == 4


def test_logout_returns_to_the_login_form() -> None:
    at = log_in(fresh(), "zhang")
    next(b for b in at.sidebar.button if b.label == "退出登录").click().run()
    assert not at.exception
    assert "用户名" in [t.label for t in at.text_input] and not at.chat_input
