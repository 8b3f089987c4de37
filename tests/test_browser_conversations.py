"""A conversation in the real browser: three turns with follow-ups, a refresh, the Markdown export, a statement.

`streamlit run app.py` on a copy of the indexed sample store, driven by Debian's
headless Chromium (skipped with a reason without it); saves docs/screenshots/conversation.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import copy_store

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, ROOT, running_app

SHOTS = ROOT / "docs" / "screenshots"
ANSWER_TIMEOUT_MS = 300_000

pytestmark = [pytest.mark.browser, pytest.mark.integration]

if not CHROMIUM.exists():
    pytest.skip("需要 Debian 的 chromium：/usr/bin/chromium 不存在", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")
# Each page rerun waits on the model and the stores; on a busy 2-core CI machine the 5 s default
# of `expect` was seen to run out mid-rerun (a wait, not a timing claim: no assertion measures time).
sync_api.expect.set_options(timeout=30_000)

from tests.test_browser import screenshot_whole_page, wait_idle  # noqa: E402


@pytest.fixture(scope="module")
def server(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("browser_conv")
    store = copy_store(sample_store, tmp / "store")
    with running_app(store, tmp) as url:
        yield url


@pytest.fixture(scope="module")
def context(server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    profile = tmp_path_factory.mktemp("chromium-profile-conv")
    with sync_api.sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800}, locale="zh-CN", accept_downloads=True,
        )  # fmt: skip
        try:
            yield ctx
        finally:
            ctx.close()


def ask(tab: object, question: str, answers_before: int) -> object:
    """Type a question, wait for its answer; returns the new assistant message."""
    box = tab.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=ANSWER_TIMEOUT_MS)
    box.fill(question)
    box.press("Enter")
    messages = tab.get_by_test_id("stChatMessage")
    # the question and a spinner show at once; the turn is done when it is redrawn from the store
    # with its 👍/👎 (typing the next question earlier would interrupt that run)
    sync_api.expect(tab.get_by_test_id("stFeedback")).to_have_count(answers_before + 1, timeout=ANSWER_TIMEOUT_MS)
    wait_idle(tab, ANSWER_TIMEOUT_MS)
    sync_api.expect(messages).to_have_count(2 * (answers_before + 1))
    return messages.nth(2 * answers_before + 1)


def test_three_turns_refresh_export_and_a_statement(server: str, context: object, tmp_path: Path) -> None:
    expect = sync_api.expect
    tab = context.pages[0] if context.pages else context.new_page()
    tab.goto(server, wait_until="domcontentloaded")

    ask(tab, "出差住宿标准是多少？", 0)
    second = ask(tab, "那一线城市呢？", 1)
    expect(second).to_contain_text("检索用的问题：一线城市出差住宿标准是多少？")
    expect(second).to_contain_text("一类城市500元")
    third = ask(tab, "这个需要谁审批？", 2)
    expect(third).to_contain_text("批准")
    expect(third).not_to_contain_text("制度里没有写这一条")
    assert "c=" in tab.url

    # a refresh keeps the conversation (its id is in the address, the turns in the data dir)
    tab.reload(wait_until="domcontentloaded")
    messages = tab.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(6, timeout=ANSWER_TIMEOUT_MS)
    wait_idle(tab)
    expect(messages.nth(3)).to_contain_text("一类城市500元")
    expect(tab.get_by_test_id("stSidebar").get_by_role("button", name="出差住宿标准是多少？")).to_be_visible()

    # export downloads Markdown holding the cited clause
    saved = tmp_path / "conversation.md"
    for attempt in range(3):  # a click that lands while the page reruns fetches a download the rerun replaced
        wait_idle(tab)
        try:
            with tab.expect_download(timeout=30_000) as download_info:
                tab.get_by_test_id("stSidebar").get_by_role("button", name=re.compile("导出本对话")).click()
            download_info.value.save_as(saved)
            break
        except sync_api.TimeoutError:
            if attempt == 2:
                raise
            # the button stays disabled while its file request is pending (up to Streamlit's 180 s): start afresh
            tab.reload(wait_until="domcontentloaded")
    markdown = saved.read_text(encoding="utf-8")
    assert "那一线城市呢？" in markdown and "一类城市500元" in markdown and "03_travel_expense.md" in markdown

    # a statement is acknowledged, not refused
    reply = ask(tab, "我是财务部的张三，我常驻杭州", 3)
    expect(reply).to_contain_text("好的，我记住了")
    expect(reply).to_contain_text("您常驻杭州")
    expect(reply).not_to_contain_text("制度里没有写这一条")
    expect(reply.get_by_role("button", name=re.compile("撤销"))).to_be_visible()
    screenshot_whole_page(tab, "conversation.png")
