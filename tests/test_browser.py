"""Browser smoke test: the real `streamlit run app.py` server driven by Debian's headless Chromium.

It checks what a person sees (an answer, the hit badge, the prompt in its expander,
an uploaded file in the list) and saves the screenshots shown in the README.
Skipped with a reason when Chromium or Playwright is not installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, ROOT, chromium_tab, running_app, wait_healthy

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "wait_healthy", "wait_idle"]  # shared with the other browser tests

SHOTS = ROOT / "docs" / "screenshots"
FIRST_ANSWER_TIMEOUT_MS = 600_000  # the first run loads the model and indexes the samples

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip(
        "需要 Debian 的 chromium：/usr/bin/chromium 不存在（apt-get install -y chromium chromium-driver）",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")
# Each page rerun waits on the model and the stores; on a busy 2-core CI machine the 5 s default
# of `expect` was seen to run out mid-rerun (a wait, not a timing claim: no assertion measures time).
sync_api.expect.set_options(timeout=30_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run app.py` on a free loopback port with a fresh data dir and no LLM."""
    tmp = tmp_path_factory.mktemp("browser")
    with running_app(tmp / "store", tmp) as url:
        yield url


@pytest.fixture(scope="module")
def page(server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """One Chromium tab with a fresh profile (1440 px: the README screenshots)."""
    with chromium_tab(sync_api, server, tmp_path_factory.mktemp("chromium-profile"), 1440, 1000) as tab:
        yield tab


def wait_idle(tab: object, timeout_ms: int = 120_000) -> None:
    """Wait until Streamlit finished the current script run (no running indicator)."""
    tab.wait_for_timeout(300)
    tab.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=timeout_ms)


def go_to(tab: object, title: str) -> None:
    tab.get_by_test_id("stSidebar").get_by_role("link").filter(has_text=title).first.click()
    tab.get_by_role("heading", name=title).wait_for(timeout=120_000)
    wait_idle(tab)


def screenshot_whole_page(tab: object, name: str) -> None:
    """Streamlit scrolls inside its main container, so grow the viewport to fit it, then shoot."""
    tab.wait_for_timeout(500)  # let expanders finish opening before measuring
    height = tab.evaluate("() => Math.max(...Array.from(document.querySelectorAll('*')).map(e => e.scrollHeight))")
    size = tab.viewport_size
    tab.set_viewport_size({"width": size["width"], "height": min(int(height) + 200, 6000)})
    tab.wait_for_timeout(500)
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / name))
    tab.set_viewport_size(size)


def test_chat_answer_with_trace_and_screenshots(page: object) -> None:
    expect = sync_api.expect
    tab = page
    box = tab.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=FIRST_ANSWER_TIMEOUT_MS)
    box.fill("打车费能报吗？")
    box.press("Enter")

    badge = tab.get_by_text(re.compile(r"命中 [1-9]\d* 块"))
    badge.wait_for(timeout=FIRST_ANSWER_TIMEOUT_MS)
    wait_idle(tab)
    assistant = tab.get_by_test_id("stChatMessage").last
    expect(assistant).to_contain_text("[资料1]")
    expect(assistant).to_contain_text("网约车")

    # a citation link opens the chunk expander and brings its card into view
    card = tab.locator('[data-testid="stMarkdownContainer"]:has(#t1-chunk-1)')
    expect(card).to_have_count(1)
    assistant.get_by_role("link", name="[资料1]").first.click()
    expect(card).to_be_in_viewport()
    expect(assistant.get_by_text(re.compile(r"依据(充分|较弱)")).first).to_be_visible()
    expect(assistant.get_by_text(re.compile(r"关键词：")).first).to_be_visible()  # why it matched, in words
    expect(assistant.get_by_test_id("stExpander").first.locator("details")).to_have_attribute("open", "")

    # HR first: no raw score, no prompt on the page until 技术细节 is opened
    for raw in ("BM25", "余弦", "完整提示词"):
        expect(assistant.get_by_text(raw)).to_have_count(0)
    expect(assistant.get_by_test_id("stCode")).to_have_count(0)
    screenshot_whole_page(tab, "chat.png")
    assistant.get_by_test_id("stExpander").filter(has_text="技术细节").locator("summary").click()
    wait_idle(tab)
    expect(assistant.get_by_text(re.compile(r"BM25 \d")).first).to_be_visible()
    expect(assistant.get_by_text(re.compile(r"完整提示词（\d+ / \d+ token）"))).to_be_visible()
    prompt = assistant.get_by_test_id("stCode")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("【资料】")
    expect(prompt).to_contain_text("打车费能报吗？")
    screenshot_whole_page(tab, "chat-details.png")

    # an absent question: zero hits, stated plainly
    box.fill("公司年会预算是多少？")
    box.press("Enter")
    tab.get_by_text("命中 0 块").wait_for(timeout=120_000)
    wait_idle(tab)
    expect(tab.get_by_test_id("stChatMessage").last).to_contain_text("制度里没有写这一条")


def test_documents_upload_through_the_browser(page: object, tmp_path: Path) -> None:
    expect = sync_api.expect
    tab = page
    go_to(tab, "文档管理")
    upload = tmp_path / "员工停车管理规定.md"
    upload.write_text(
        "# 员工停车管理规定\n\n第一条 地下停车场车位优先分配给孕期员工。\n\n第二条 停车费每月300元。\n",
        encoding="utf-8",
    )
    tab.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(upload))
    tab.get_by_text("员工停车管理规定.md").first.wait_for(timeout=30_000)
    tab.get_by_role("button", name="开始导入").click()
    tab.get_by_text(re.compile(r"本次导入：.*成功 1 个")).wait_for(timeout=180_000)
    wait_idle(tab)
    expect(tab.get_by_text(re.compile(r"已索引的文档（\d+ 份）"))).to_be_visible()
    screenshot_whole_page(tab, "documents.png")


def test_memories_page(page: object) -> None:
    expect = sync_api.expect
    tab = page
    go_to(tab, "记忆管理")
    # the chat test asked two questions as the desktop user: a question is no memory, so none is listed
    header = tab.get_by_text(re.compile(r"\S+ 的记忆：共 (\d+) 条"))  # the desktop user's name (local administrator)
    expect(header).to_be_visible()
    who, count = re.search(r"(\S+) 的记忆：共 (\d+) 条", header.inner_text()).groups()
    before = int(count)
    assert before == 0
    tab.get_by_text("手动添加一条记忆").click()
    for added, content in enumerate(("我在上海办公室，负责校园招聘。", "我喜欢用表格列出报销标准。"), start=1):
        tab.get_by_label("内容").fill(content)
        tab.wait_for_timeout(300)  # let the text area report its value before the form is sent
        tab.get_by_role("button", name="保存记忆").click()
        wait_idle(tab)
        expect(tab.get_by_text(f"{who} 的记忆：共 {before + added} 条")).to_be_visible(timeout=30_000)
    keep = tab.get_by_label("保留条数 N")
    for _attempt in range(3):  # a rerun still drawing the last save can redraw the field with its default
        keep.fill("1")  # of the two memories just added: one is forgotten
        keep.press("Enter")
        wait_idle(tab)
        if keep.input_value() == "1":
            break
    expect(keep).to_have_value("1")
    tab.get_by_role("button", name="预览将被遗忘的记忆").click()
    expect(tab.get_by_text(re.compile(r"保留 1 条时，以下 \d+ 条将被遗忘"))).to_be_visible()
    screenshot_whole_page(tab, "memories.png")


def test_phone_layout_closes_the_sidebar_after_navigation(page: object) -> None:
    """390×844: the menu opens over the page; tapping a page link closes it again."""
    expect = sync_api.expect
    tab = page
    tab.get_by_test_id("stSidebar").get_by_role("link").first.wait_for(timeout=FIRST_ANSWER_TIMEOUT_MS)
    wait_idle(tab, FIRST_ANSWER_TIMEOUT_MS)
    size = tab.viewport_size
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.wait_for_timeout(1_000)  # Streamlit may fold the sidebar away when the window narrows
    try:
        sidebar = tab.get_by_test_id("stSidebar")
        if sidebar.get_attribute("data-collapsed") != "false":
            tab.get_by_test_id("stExpandSidebarButton").click()
        expect(sidebar).to_have_attribute("data-collapsed", "false")
        sidebar.get_by_role("link").filter(has_text="检索测试").first.click()
        tab.get_by_role("heading", name="检索测试").wait_for(timeout=120_000)
        wait_idle(tab)
        expect(sidebar).to_have_attribute("data-collapsed", "true", timeout=5_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SHOTS / "phone.png"))
    finally:
        tab.set_viewport_size(size)


def test_pages_fit_1280_px(page: object) -> None:
    """At 1280×800 no table or chart runs past the right edge of the main column."""
    tab = page
    tab.get_by_test_id("stSidebar").get_by_role("link").first.wait_for(timeout=FIRST_ANSWER_TIMEOUT_MS)
    size = tab.viewport_size
    tab.set_viewport_size({"width": 1280, "height": 800})
    tab.wait_for_timeout(1_000)
    if tab.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "true":  # closed by the phone test
        tab.get_by_test_id("stExpandSidebarButton").click()
        sync_api.expect(tab.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "false")
    try:
        for title in ("文档管理", "检索测试", "设置"):
            go_to(tab, title)
            overflow = tab.evaluate(
                """() => {
                  const main = document.querySelector('[data-testid="stMain"]').getBoundingClientRect();
                  const boxes = Array.from(document.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stVegaLiteChart"]'));
                  const outside = boxes.filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > main.right + 1; });
                  // a table narrower than its columns scrolls sideways: columns are cut off at this width
                  const cut = Array.from(document.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller'))
                    .filter(e => e.scrollWidth > e.clientWidth + 1);
                  return outside.length + cut.length;
                }"""
            )
            assert overflow == 0, f"{title}: {overflow} tables or charts wider than the page at 1280 px"
    finally:
        tab.set_viewport_size(size)
