"""Secrets: .env is never indexed, the API key never shows up in a trace or a repr."""

from __future__ import annotations

import json

import pytest
from conftest import open_assistant
from openai_stub_server import OpenAIStubServer

from rag_core.answer.llm import OpenAICompatibleClient
from rag_core.settings import Settings

KEY = "sk-test-SECRET-0123456789"

pytestmark = pytest.mark.integration


def test_env_file_is_not_indexed(store_copy, tmp_path):
    folder = tmp_path / "upload"
    folder.mkdir()
    (folder / ".env").write_text(f"LLM_API_KEY={KEY}\n", encoding="utf-8")
    (folder / "policy.md").write_text("# 制度\n\n第一条 测试。密钥不应进入索引。\n", encoding="utf-8")
    a = open_assistant(tmp_path / "fresh")
    reports = a.ensure_samples(folder)
    assert [r.filename for r in reports] == ["policy.md"]
    refused = a.ingest_file(folder / ".env")
    assert refused.status == "refused"
    assert all(KEY not in c.text for c in a.catalog.all_chunks())


def test_key_is_not_in_settings_repr_or_trace(store_copy):
    settings = Settings.from_env(data_dir=store_copy, env_file=None, llm_api_key=KEY, llm_model_id="stub-model")
    assert KEY not in repr(settings) and KEY not in settings.masked_api_key
    with OpenAIStubServer() as server:
        llm = OpenAICompatibleClient(api_key=KEY, model="stub-model", base_url=server.base_url)
        a = open_assistant(store_copy, llm_api_key=KEY, llm_model_id="stub-model", llm_base_url=server.base_url)
        a.llm = llm
        trace = a.ask("病假需要提供什么证明？", user="")
        assert server.requests and server.requests[-1].authorization == f"Bearer {KEY}"
    dumped = json.dumps(trace.to_dict(), ensure_ascii=False)
    assert KEY not in dumped and trace.answerer == "stub-model"
