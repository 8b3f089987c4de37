"""Text people and documents wrote shows inert on every page: no live link, image, math or autolink.

One store is seeded with hostile strings everywhere a person or a document can put text:
a document's title, section and clause, its file name, a refused upload's name, a question
(so it lands in 知识缺口 and 使用情况), a 👎 comment, a standard answer (question, answer,
clauses, variants), a conversation title and a memory. Then every page is drawn:

- fast (AppTest, the fake embedder): every string Streamlit reads as markdown (bodies of
  markdown, captions, alerts, toasts, headings; labels and help of expanders, buttons,
  tabs, metrics, widgets; progress texts) that carries seeded text has it inert, by the
  rule ui/inert.py applies;
- browser (`streamlit run` in Chromium, real e5): no `<a href>`, `<img>` or `.katex` in
  the DOM comes from the content, on the HR pages, chat and documents.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal
from ui.inert import WORD_JOINER

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
LOCAL = Principal(user="local", role="admin")  # the desktop mode's administrator: every page, every name

EVIL = "evil.example"
LINK = f"[点我](http://{EVIL}/link)"
IMAGE = f"![](http://{EVIL}/img.png)"
MATH = "$x^2$"
BARE = f"http://{EVIL}/bare"
WWW = f"www.{EVIL}"
MAIL = f"hr@{EVIL}"
ENTITY = f"https&#58;//{EVIL}/entity"
ICON = ":material/pets: :streamlit:"  # Streamlit draws an icon and its logo image for these (review 226)
ARROWS = "A -> B -- C >= D"  # and typography: A → B — C ≥ D
HOSTILE = f"{LINK} {IMAGE} {MATH} {BARE} {WWW} {MAIL} {ENTITY} {ICON} {ARROWS}"
TITLE = f"年假 {BARE} {LINK} {MATH}"  # titles are cut short: the bare URL first
CLAUSE = "第一条 员工每年享有带薪年假五天。"
POLICY = (
    f"# {TITLE}\n\n## 第一章 <img src=\"http://{EVIL}/h.png\"> {LINK}\n\n{CLAUSE}详见 {HOSTILE}\n\n"
    f"第二条 年假须提前申请。{HOSTILE}\n"
)
FILE_NAME = f"年假 {WWW}.md"
TABLES_ONLY = {"pages/audit.py"}  # shows what people typed only in its table, which is plain text
PAGES = ["pages/chat.py", "pages/documents.py", "pages/memories.py", "pages/retrieval_test.py", "pages/gaps.py",
         "pages/feedback_review.py", "pages/standard_answers.py", "pages/usage.py", "pages/audit.py"]


def seed(assistant: Any) -> dict[str, Any]:
    """Hostile text in every store a page reads; returns what the pages need to be pointed at it."""
    report = assistant.ingest_bytes(POLICY.encode(), FILE_NAME, actor=LOCAL)
    assert report.ok, report.error
    refused = assistant.ingest_bytes(b"   ", f"坏文件 {WWW} {LINK}.md", actor=LOCAL)
    assert not refused.ok
    conversation = assistant.new_conversation_id()
    answered = assistant.ask(f"员工每年享有带薪年假几天？{HOSTILE}", user=LOCAL.user, actor=LOCAL,
                             conversation=conversation)
    assistant.record_feedback(answered, -1, actor=LOCAL, reason=assistant.feedback_reasons[0],
                              comment=f"不对 {HOSTILE}")
    assistant.ask(f"公司班车几点发车？{HOSTILE}", user=LOCAL.user, actor=LOCAL, conversation=conversation)
    standard = assistant.add_standard_answer(
        f"食堂几点开门？{HOSTILE}", f"答复：\n\n- 早上七点 {HOSTILE}", clauses=[f"条款 {HOSTILE}"],
        variants=[f"问法 {HOSTILE}"], actor=LOCAL,
    )
    assistant.ask(standard.question, user=LOCAL.user, actor=LOCAL, conversation=conversation)
    assistant.rename_conversation(conversation, f"对话 {LINK} {BARE}", actor=LOCAL)
    memory, _ = assistant.remember(LOCAL.user, f"我喜欢 {HOSTILE}", actor=LOCAL)
    assistant.remember(f"张三 {WWW}", "我在杭州", actor=LOCAL)  # a name in the memory page's help text
    never_cited = assistant.ingest_bytes(f"# 报销 {BARE} {LINK}\n\n第一条 差旅住宿按实报销。\n".encode(), "报销.md",
                                         actor=LOCAL)
    assert never_cited.ok, never_cited.error
    return {"conversation": conversation, "reports": [report, refused], "search": f"年假 {HOSTILE}", "memory": memory}


# -- the fast check: markdown sources under AppTest -------------------------------------------------

# Proto fields Streamlit draws as markdown (radio options too); everything else (st.text, st.code,
# st.json, table cells, the options of select boxes, input values) is shown as plain text.
MARKDOWN_FIELDS = {"body", "label", "help", "text", "labels", "caption", "placeholder"}
PLAIN_ELEMENTS = {"text", "code", "json", "html", "exception"}
_ESCAPED = re.compile(r"\\.", re.S)
_ANCHOR = re.compile(r'<span id="[\w-]+"></span>')  # the hit card's own anchor (ui.trace_view.card_header)


def _strings(message: Any, kind: str) -> Iterator[str]:
    for field, value in message.ListFields():
        single = isinstance(value, (str, bytes, int, float)) or hasattr(value, "ListFields")
        values = [value] if single else list(value)  # a repeated field
        if field.message_type is not None:
            for sub in values:
                yield from _strings(sub, kind)
        elif field.name in MARKDOWN_FIELDS or (kind == "radio" and field.name == "options"):
            yield from (v for v in values if isinstance(v, str))


def markdown_strings(at: AppTest) -> list[tuple[str, str]]:
    """(element type, source) of every markdown-drawn string on the page."""
    found: list[tuple[str, str]] = []

    def walk(node: Any) -> None:
        proto, kind = getattr(node, "proto", None), getattr(node, "type", "")
        if proto is not None and kind not in PLAIN_ELEMENTS:
            found.extend((kind, text) for text in _strings(proto, kind))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def live_markup(source: str) -> list[str]:
    """What in a markdown source would render live: link or image syntax, math, HTML, a character
    reference, or an autolink (http(s)://, www., @) that the word joiner does not stop."""
    problems = []
    bare = _ANCHOR.sub("", _ESCAPED.sub("", source))  # escapes with what they protect, the card anchors
    if re.search(r"\]\((?!#[\w-]+\))", bare):  # only the engine's [资料N](#anchor) links are live
        problems.append("link/image")
    if "$" in bare:
        problems.append("math")
    if "<" in bare:
        problems.append("html")
    if "&#" in bare:
        problems.append("character reference")
    if re.search(rf"(?<!{WORD_JOINER})(?i:https?\\?:|www\\?\.|@)", source):
        problems.append("autolink")
    shown = re.sub(r"\\(.)", r"\1", source)  # the text after Streamlit resolved the escapes
    if re.search(r":(?:material[/_]|streamlit:)", shown):
        problems.append("icon")
    # what Streamlit's typography plugin reads: a pair at the edge of a text node (after **, _ or ~) or beside
    # a BOM counts as between spaces (JavaScript's \s holds U+FEFF)
    if re.search(r"(?<![^\s*_~\ufeff])(?:<->|->|<-|--|>=|<=|~=)(?![^\s*_~\ufeff])", shown):
        problems.append("typography")
    return problems


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, Any]]]:
    assistant = fake_assistant(tmp_path_factory.mktemp("inert") / "store")
    yield assistant, seed(assistant)


@pytest.fixture
def app(seeded: tuple[Any, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The app on the seeded fake-embedder facade (the pages' cached facade replaced by it)."""
    import ui.state

    assistant, _ = seeded
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def drawn(at: AppTest, page: str, seeded: dict[str, Any], assistant: Any) -> AppTest:
    """The page with every optional panel that shows content opened."""
    if page == "pages/chat.py":
        at.query_params["c"] = seeded["conversation"]
    if page == "pages/documents.py":
        at.session_state["doc_ingest_reports"] = seeded["reports"]
    if page == "pages/memories.py":
        at.session_state["memory_delete_pending"] = [seeded["memory"]]
    if page == "pages/retrieval_test.py":
        question = seeded["search"]
        found = assistant.search_as_chat(question, actor=LOCAL)
        # as when the tester's memories picked the clauses: the searched text and the memories are shown too
        found.memory_search, found.memories = f"{question}（{HOSTILE}）", assistant.list_memories(LOCAL.user, actor=LOCAL)
        at.session_state["retrieval_chat_search"] = (None, found, LOCAL, assistant.library_generation(actor=LOCAL))
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("page", PAGES)
def test_every_markdown_string_with_content_is_inert(app: AppTest, seeded: tuple[Any, dict[str, Any]],
                                                     page: str) -> None:
    assistant, info = seeded
    at = drawn(app, page, info, assistant)
    strings = [(kind, text) for kind, text in markdown_strings(at) if "evil" in text]
    assert strings or page in TABLES_ONLY, f"{page}: no seeded text on the page, the test would prove nothing"
    live = [(kind, text, problems) for kind, text in strings if (problems := live_markup(text))]
    assert not live, "\n".join(f"{page} {kind}: {problems} in {text!r}" for kind, text, problems in live)


def test_the_check_sees_live_markup() -> None:
    """The detector itself: raw content is flagged; what ui.inert makes of it is not."""
    from ui.inert import escape_md, inert_markdown

    for piece in (LINK, IMAGE, MATH, BARE, WWW, MAIL, ENTITY, f"<img src=http://{EVIL}/x.png>", ICON, ARROWS):
        assert live_markup(piece), piece
        assert not live_markup(escape_md(piece)), escape_md(piece)
        assert not live_markup(inert_markdown(piece)), inert_markdown(piece)
    assert not live_markup('<span id="t1-chunk-1"></span>[\\[资料1\\]](#t1-chunk-1)')


# -- the browser check: the DOM in Chromium --------------------------------------------------------

# Anything live from the content: a link off the app (an autolink, a markdown link, mailto:), an
# image from anywhere but the app, rendered math. The app's own links are same-origin or #anchors.
_LIVE_JS = """() => {
  const foreign = (url) => url && !url.startsWith(location.origin) && !url.startsWith("data:") && !url.startsWith("blob:");
  const out = [];
  for (const a of document.querySelectorAll("a[href]")) if (foreign(a.href)) out.push("a " + a.href);
  for (const img of document.querySelectorAll("img[src]")) if (foreign(img.src)) out.push("img " + img.src);
  for (const m of document.querySelectorAll(".katex, math")) out.push("math " + m.textContent.slice(0, 60));
  for (const img of document.querySelectorAll('img[alt="Streamlit logo"]')) out.push("logo");
  for (const icon of document.querySelectorAll('span[role="img"], [data-testid="stIconMaterial"]'))
    if (icon.textContent === "pets") out.push("icon");
  return out;
}"""
BROWSER_PAGES = ["知识缺口", "反馈审阅", "标准答复", "使用情况", "记忆管理", "审计日志"]


def _live_in_dom(tab: Any, where: str, found: dict[str, list[str]]) -> None:
    tab.wait_for_timeout(500)
    if live := tab.evaluate(_LIVE_JS):
        found[where] = live


def _open_expanders(tab: Any, wait_idle: Any) -> None:
    """Open every closed expander but 技术细节 (its numbers and prompt are tables and code)."""
    summaries = tab.locator("details:not([open]) > summary").filter(has_not_text="技术细节")
    for _ in range(summaries.count()):
        if not summaries.count():
            break
        summaries.first.click()
        tab.wait_for_timeout(150)
    wait_idle(tab)


@pytest.mark.browser
@pytest.mark.integration
def test_no_live_link_image_or_math_in_chromium(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The seeded store under `streamlit run`: chat, the HR pages, retrieval test and documents with an
    upload. No foreign <a href>, no foreign <img>, no .katex; the URLs read and copy as written."""
    from tests.browser_support import CHROMIUM, chromium_tab, running_app

    if not CHROMIUM.exists():
        pytest.skip("需要 Debian 的 chromium：/usr/bin/chromium 不存在")
    sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")
    from conftest import open_assistant

    from tests.test_browser import go_to, wait_idle

    live: dict[str, list[str]] = {}  # page -> what rendered live, asserted at the end (every page is looked at)
    tmp = tmp_path_factory.mktemp("inert_browser")
    facade = open_assistant(tmp / "store")
    info = seed(facade)
    facade.catalog.close()
    del facade
    with running_app(tmp / "store", tmp) as url, chromium_tab(
        sync_api, f"{url}/?c={info['conversation']}", tmp / "profile", 1280, 900
    ) as tab:
        sync_api.expect(tab.get_by_test_id("stFeedback")).to_have_count(3, timeout=600_000)
        wait_idle(tab, 600_000)
        _open_expanders(tab, wait_idle)
        _live_in_dom(tab, "问答", live)
        text = tab.evaluate("() => document.body.innerText")
        assert BARE in text, "a URL in a question reads, and copies, as written"
        for title in BROWSER_PAGES:
            go_to(tab, title)
            _open_expanders(tab, wait_idle)
            _live_in_dom(tab, title, live)
            if title not in ("记忆管理", "审计日志"):  # they show what people wrote in tables (a canvas)
                assert EVIL in tab.evaluate("() => document.body.innerText"), f"{title}: nothing seeded shown"
        go_to(tab, "检索测试")
        tab.get_by_role("textbox", name="问题", exact=True).fill(info["search"])
        tab.get_by_role("button", name="检索").click()
        tab.get_by_text("《年假").first.wait_for(timeout=120_000)
        wait_idle(tab)
        _live_in_dom(tab, "检索测试", live)
        go_to(tab, "文档管理")
        upload = f"病假 {WWW}.md"
        tab.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            files=[{"name": upload, "mimeType": "text/markdown", "buffer": POLICY.replace("年假", "病假").encode()}]
        )
        tab.get_by_role("button", name="开始导入").click()
        tab.get_by_text("是怎样读取的").first.wait_for(timeout=300_000)
        wait_idle(tab, 300_000)
        _open_expanders(tab, wait_idle)
        _live_in_dom(tab, "文档管理", live)
        assert EVIL in tab.evaluate("() => document.body.innerText")
    assert not live, "\n".join(
        f"{page}: " + "; ".join(f"{n} {kind}" for kind, n in Counter(i.split(" ", 1)[0] for i in items).items())
        + f", e.g. {sorted(set(items))[:5]}"
        for page, items in live.items()
    )
