"""With a model configured, the chat page says the question is being answered while the model is awaited (review
363 #3: the bubble stayed empty for the whole llm_timeout_s when the server did not answer). The app under
`streamlit run`, headless Chromium, a loopback model server that accepts and never answers."""

from __future__ import annotations

import time

import pytest
from openai_stub_server import OpenAIStubServer

from tests.browser_support import chromium_tab, running_app

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api", reason="需要 playwright Python 包")


def test_the_bubble_says_the_model_is_awaited(tmp_path) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        env = {"LLM_API_KEY": "k", "LLM_MODEL_ID": "m", "LLM_BASE_URL": stub.base_url, "RAG_LLM_TIMEOUT_S": "20"}
        with running_app(tmp_path / "store", tmp_path, env=env) as url, \
                chromium_tab(sync_api, url, tmp_path / "profile") as tab:
            box = tab.get_by_test_id("stChatInputTextArea")
            box.wait_for(timeout=240_000)
            box.fill("打车费能报吗？")
            box.press("Enter")
            deadline = time.monotonic() + 60
            while not stub.requests and time.monotonic() < deadline:  # the question reached the model
                time.sleep(0.2)
            assert stub.requests, "the model was never called"
            bubbles = tab.get_by_test_id("stChatMessage")
            sync_api.expect(bubbles.last).to_contain_text("正在检索制度并等待大模型回答", timeout=10_000)
