"""Review 363 #7: a request the caller stopped waiting for was tried again in the background.

The SDK retried on its own after its HTTP timeout, long after the answer step's deadline had given the person the
offline answer: a server that never answered got a second request. The client now retries itself, only while the
caller still waits, and still once after a passing 502 (`OpenAICompatibleClient._opened`).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from openai_stub_server import OpenAIStubServer

from rag_core.answer.llm import LLMError, OpenAICompatibleClient
from rag_core.answer.llm_pause import PausingLLM

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


class _Failing(BaseHTTPRequestHandler):
    """Answers every request with `status` after `delay` seconds, with the `extra` headers."""

    protocol_version = "HTTP/1.1"
    status, delay, extra, arrivals = 503, 0.0, {}, []

    def log_message(self, *_args) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).arrivals.append(time.monotonic())
        time.sleep(self.delay)
        body = json.dumps({"error": {"message": "upstream busy", "type": "server_error"}}).encode()
        self.send_response(self.status)
        for name, value in {"Content-Type": "application/json", "Content-Length": str(len(body)), **self.extra}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def _serving(**attrs) -> tuple[ThreadingHTTPServer, type]:
    handler = type("Handler", (_Failing,), {**attrs, "arrivals": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler


def test_a_late_failure_is_said_as_it_is_and_not_tried_past_the_deadline():
    """Review 378 #3: a 503 near the deadline was retried after the caller gave up, said as a timeout, and paused."""
    server, handler = _serving(delay=0.7)
    try:
        llm = PausingLLM(OpenAICompatibleClient(api_key="k", model="m", timeout_s=1.0,
                                                base_url=f"http://127.0.0.1:{server.server_address[1]}/v1"))
        with pytest.raises(LLMError, match="503"):
            "".join(llm.stream("年假有几天？"))
        time.sleep(1.5)
        assert len(handler.arrivals) == 1 and llm.paused_for == 0
    finally:
        server.shutdown()


def test_a_server_asking_for_a_long_wait_is_not_asked_again_at_once():
    """Review 378 #8: a 429 with Retry-After: 20 was tried again after 0.5 s."""
    server, handler = _serving(status=429, extra={"Retry-After": "20"})
    try:
        client = OpenAICompatibleClient(api_key="k", model="m", timeout_s=5,
                                        base_url=f"http://127.0.0.1:{server.server_address[1]}/v1")
        with pytest.raises(LLMError, match="429"):
            client.complete("年假有几天？")
        assert len(handler.arrivals) == 1
    finally:
        server.shutdown()
