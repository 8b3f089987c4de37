"""Team mode in a real browser: `streamlit run app.py` on loopback, driven by Debian's headless Chromium.

What AppTest cannot show: the session cookie that brings a login back after a browser
refresh, and a page URL typed into the address bar. Skipped with a reason when
Chromium or Playwright is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import copy_store

from tests.browser_support import chromium_tab, running_app
from tests.test_browser import CHROMIUM, wait_idle

PASSWORD = "correct horse"
HR_ONLY = "# 薪酬保密制度\n\n第一条 海豚补贴每月 800 元，发放名单仅限人事部门掌握。\n"

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")
# Each page rerun waits on the model and the stores; on a busy 2-core CI machine the 5 s default
# of `expect` was seen to run out mid-rerun (a wait, not a timing claim: no assertion measures time).
sync_api.expect.set_options(timeout=30_000)


@pytest.fixture(scope="module")
def server(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a copy of the indexed sample store plus an HR-only policy, with two accounts."""
    from conftest import open_assistant

    tmp = tmp_path_factory.mktemp("browser_login")
    store = copy_store(sample_store, tmp / "store")
    facade = open_assistant(store)
    assert facade.ingest_bytes(HR_ONLY.encode("utf-8"), "pay_secret.md", audience=["hr"]).ok
    facade.add_user("wang", "admin", PASSWORD)
    facade.add_user("zhang", "employee", PASSWORD, actor=facade.session_principal(facade.login("wang", PASSWORD)))
    facade.catalog.close()
    with running_app(store, tmp) as url:
        yield url


@pytest.fixture(scope="module")
def tab(server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    with chromium_tab(sync_api, server, tmp_path_factory.mktemp("chromium-login-profile")) as page:
        yield page


def log_in(tab, name: str, password: str) -> None:
    tab.get_by_label("用户名").fill(name)
    tab.get_by_label("密码").fill(password)
    tab.get_by_role("button", name="登录").click()
    wait_idle(tab, 600_000)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="需要 Debian 的 chromium：/usr/bin/chromium 不存在")
def test_login_survives_a_refresh_and_an_employee_meets_the_gate(tab, server: str) -> None:
    expect = sync_api.expect
    expect(tab.get_by_role("heading", name="登录 · HR 制度助手")).to_be_visible(timeout=600_000)
    expect(tab.get_by_test_id("stChatInput")).to_have_count(0)

    log_in(tab, "zhang", "wrong password")
    expect(tab.get_by_text("用户名或密码不正确")).to_be_visible(timeout=60_000)

    log_in(tab, "zhang", PASSWORD)
    expect(tab.get_by_test_id("stChatInput")).to_be_visible(timeout=120_000)
    sidebar = tab.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text("zhang")).to_be_visible()
    expect(sidebar.get_by_role("link", name="文档管理")).to_have_count(0)

    tab.reload(wait_until="domcontentloaded")  # a new Streamlit session: the cookie brings the login back
    expect(tab.get_by_test_id("stChatInput")).to_be_visible(timeout=120_000)
    expect(tab.get_by_role("heading", name="登录 · HR 制度助手")).to_have_count(0)

    tab.goto(f"{server}/documents", wait_until="domcontentloaded")  # a page typed as a URL
    expect(tab.get_by_text("没有权限查看此页面")).to_be_visible(timeout=120_000)
    expect(tab.get_by_text("薪酬保密制度")).to_have_count(0)

    tab.goto(server, wait_until="domcontentloaded")
    expect(tab.get_by_test_id("stChatInput")).to_be_visible(timeout=120_000)
    tab.get_by_test_id("stSidebar").get_by_role("button", name="退出登录").click()
    expect(tab.get_by_role("heading", name="登录 · HR 制度助手")).to_be_visible(timeout=60_000)
    tab.reload(wait_until="domcontentloaded")  # the ended session is not brought back by the old cookie
    expect(tab.get_by_role("heading", name="登录 · HR 制度助手")).to_be_visible(timeout=120_000)
