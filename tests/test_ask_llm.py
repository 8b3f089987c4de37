"""`Assistant.ask` through a real OpenAI-compatible HTTP server on loopback (no client patching)."""

from __future__ import annotations

import pytest
from conftest import open_assistant
from openai_stub_server import OpenAIStubServer

pytestmark = pytest.mark.integration


@pytest.fixture()
def llm_assistant(store_copy):
    with OpenAIStubServer(reply="病假须提供二级以上医院出具的诊断证明 [资料1]。") as server:
        a = open_assistant(store_copy, llm_api_key="k-123456789", llm_model_id="stub-model", llm_base_url=server.base_url)
        yield a, server


def test_prompt_reaches_the_endpoint_verbatim(llm_assistant):
    a, server = llm_assistant
    trace = a.ask("病假需要提供什么证明？", user="")
    assert trace.answer == "病假须提供二级以上医院出具的诊断证明 [资料1]。"
    body = server.requests[-1].body
    assert body["model"] == "stub-model" and body["temperature"] == 0
    assert body["messages"][-1]["content"] == trace.prompt
    assert a.llm_status.endswith("stub-model")


def test_streaming_delivers_pieces_in_order(llm_assistant):
    a, server = llm_assistant
    pieces: list[str] = []
    trace = a.ask("病假需要提供什么证明？", user="", on_token=pieces.append)
    assert len(pieces) >= 3 and "".join(pieces) == trace.answer
    assert server.requests[-1].body.get("stream") is True


def test_zero_hits_never_call_the_model(llm_assistant):
    a, server = llm_assistant
    before = len(server.requests)
    trace = a.ask("公司年会预算是多少？", user="")
    assert trace.answer == "制度里没有写这一条" and len(server.requests) == before
