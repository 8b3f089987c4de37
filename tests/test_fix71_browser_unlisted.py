"""Review 393 #2: a new conversation left while its first answer is written (the model slow) is listed in 我的对话
once that answer is stored, without another click. The app under `streamlit run`, headless Chromium, a loopback
model server streaming slowly."""

from __future__ import annotations

import sqlite3
import time

import pytest
from openai_stub_server import OpenAIStubServer

from tests.browser_support import chromium_tab, running_app

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")


def _idle(tab) -> None:
    tab.wait_for_timeout(300)
    tab.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=120_000)


def _send(tab, question: str) -> None:
    box = tab.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=240_000)
    box.fill(question)
    box.press("Enter")


def _stored(store, title: str) -> int:
    with sqlite3.connect(store / "conversations.sqlite3") as db:
        return db.execute("SELECT COUNT(*) FROM turns t JOIN conversations c ON c.id = t.conversation_id "
                          "WHERE c.title = ?", (title,)).fetchone()[0]


def test_a_conversation_left_while_answered_is_listed_once_stored(tmp_path) -> None:
    reply = "根据制度，病假须提交医院的诊断证明 [资料1]。"
    with OpenAIStubServer(reply=lambda body: reply if body.get("stream") else "好的") as stub:
        env = {"LLM_API_KEY": "k", "LLM_MODEL_ID": "m", "LLM_BASE_URL": stub.base_url}
        store = tmp_path / "store"
        with running_app(store, tmp_path, env=env) as url, chromium_tab(sync_api, url, tmp_path / "profile") as tab:
            _send(tab, "出差住宿标准是多少？")
            sync_api.expect(tab.get_by_test_id("stFeedback")).to_have_count(1, timeout=180_000)
            _idle(tab)
            side = tab.get_by_test_id("stSidebar")
            side.get_by_role("button", name="新对话").click()
            _idle(tab)
            stub.piece_delay_s = 0.3  # about 4 s of writing
            _send(tab, "病假需要什么材料？")
            main = tab.get_by_test_id("stMainBlockContainer")
            sync_api.expect(main).to_contain_text("根据制度", timeout=60_000)  # it is being written
            side.get_by_role("button", name="出差住宿标准是多少？").click()  # back to the first one meanwhile
            deadline = time.monotonic() + 60
            while not _stored(store, "病假需要什么材料？") and time.monotonic() < deadline:
                time.sleep(0.5)
            assert _stored(store, "病假需要什么材料？"), "the answer was never stored"
            sync_api.expect(side.get_by_role("button", name="病假需要什么材料？")).to_have_count(1, timeout=15_000)
