"""In the real browser: a question sent 150 ms after the one before it, while that answer is still being written, is
answered after it, in the same conversation (review 53 #1), and the tab never asks fonts.gstatic.com for its icon
(review 53 #2). `streamlit run app.py` (fast reruns on, Streamlit's default) on a copy of the indexed sample store,
Debian's headless Chromium (skipped with a reason without it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import copy_store

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, running_app

ANSWER_TIMEOUT_MS = 300_000
FIRST, SECOND = "出差住宿标准是多少？", "那一线城市呢？"

pytestmark = [pytest.mark.browser, pytest.mark.integration]

if not CHROMIUM.exists():
    pytest.skip("需要 Debian 的 chromium：/usr/bin/chromium 不存在", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")
sync_api.expect.set_options(timeout=30_000)  # a busy machine's reruns (a wait, not a timing claim)

from tests.test_browser import wait_idle  # noqa: E402


@pytest.fixture()
def tab(sample_store: Path, tmp_path: Path) -> Iterator[tuple[object, list[str]]]:
    store = copy_store(sample_store, tmp_path / "store")
    with running_app(store, tmp_path) as url, sync_api.sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800}, locale="zh-CN",
        )  # fmt: skip
        try:
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            online: list[str] = []
            page.on("request", lambda request: online.append(request.url) if "127.0.0.1" not in request.url
                    and not request.url.startswith(("data:", "blob:")) else None)
            page.goto(url, wait_until="domcontentloaded")
            yield page, online
        finally:
            ctx.close()


def send(page: object, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=ANSWER_TIMEOUT_MS)
    box.fill(question)
    box.press("Enter")


def test_a_question_sent_while_the_answer_is_written_is_answered_next(tab) -> None:
    page, online = tab
    expect = sync_api.expect
    send(page, FIRST)
    page.wait_for_timeout(150)  # the first answer is being written (most tries): fast reruns start a new run
    send(page, SECOND)
    expect(page.get_by_test_id("stFeedback")).to_have_count(2, timeout=ANSWER_TIMEOUT_MS)  # both turns stored
    wait_idle(page, ANSWER_TIMEOUT_MS)
    page.reload(wait_until="domcontentloaded")  # drawn from the store
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(4, timeout=ANSWER_TIMEOUT_MS)
    expect(messages.nth(0)).to_contain_text(FIRST)
    expect(messages.nth(2)).to_contain_text(SECOND)
    expect(messages.nth(3)).to_contain_text("500")  # the follow-up read as the first question's city tier
    assert not [u for u in online if "gstatic" in u or "googleapis" in u], online
