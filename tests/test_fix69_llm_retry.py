"""Review 363 #7: a request the caller stopped waiting for was tried again in the background.

The SDK retried on its own after its HTTP timeout, long after the answer step's deadline had given the person the
offline answer: a server that never answered got a second request. The client now retries itself, only while the
caller still waits, and still once after a passing 502 (`OpenAICompatibleClient._opened`).
"""

from __future__ import annotations

import time

import pytest
from openai_stub_server import OpenAIStubServer

from rag_core.answer.llm import LLMError, OpenAICompatibleClient

pytestmark = pytest.mark.slow  # a loopback HTTP server on a thread


def _client(stub: OpenAIStubServer, timeout_s: float = 0.5) -> OpenAICompatibleClient:
    return OpenAICompatibleClient(api_key="k", model="m", base_url=stub.base_url, timeout_s=timeout_s)  # retries as shipped


@pytest.mark.parametrize("call", ["complete", "stream"])
def test_a_server_that_never_answers_gets_one_request(call):
    with OpenAIStubServer(mode="hang") as stub:
        client = _client(stub)
        with pytest.raises(LLMError):
            list(client.stream("年假有几天？")) if call == "stream" else client.complete("年假有几天？")
        time.sleep(2.5)  # past the HTTP timeout and the SDK's backoff: its retry would have come by now
        assert len(stub.requests) == 1


@pytest.mark.parametrize("call", ["complete", "stream"])
def test_a_passing_gateway_error_is_still_tried_again(call):
    with OpenAIStubServer(mode="fail_once") as stub:
        client = _client(stub, timeout_s=5)
        answer = "".join(client.stream("年假有几天？")) if call == "stream" else client.complete("年假有几天？")
        assert "出租车" in answer and len(stub.requests) == 2


def test_no_retry_when_none_is_asked():
    with OpenAIStubServer(mode="fail_once") as stub:
        client = OpenAICompatibleClient(api_key="k", model="m", base_url=stub.base_url, timeout_s=5, max_retries=0)
        with pytest.raises(LLMError, match="502"):
            client.complete("年假有几天？")
        assert len(stub.requests) == 1
