"""Review 51f: a model call that never ends, a reply cut inside a number, a content that is not a string, and
a reply made only of citations the prompt never had.

The client tests run the real `openai` client against a misbehaving server on a loopback thread. A server that
stalls does so until the test releases it or a long cap passes, then answers well: without a deadline the call
returns that answer (and the test fails), it never hangs the suite.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fakes import QueuedLLM, fake_assistant

from rag_core.answer import llm as llm_module
from rag_core.answer.answering import ANSWER_MAX_CHARS, MODEL_DOWN_NOTE, compose_answer
from rag_core.answer.llm import CUT_NOTE, LLMError, OpenAICompatibleClient
from rag_core.answer.prompt import BuiltPrompt
from rag_core.conversations.followup import Rewrite
from rag_core.conversations.rewrite import llm_rewrite
from rag_core.memory import extraction
from rag_core.memory.extraction import extract_facts
from rag_core.text.checksums import id_card_valid
from rag_core.types import SourceRef

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元，二线城市每晚上限 400 元。\n"
FOUND = "一线城市住宿上限是多少？"
REPLY = "一线城市每晚上限600元[资料1]。"
ONE = BuiltPrompt("p", [SourceRef(1, "一线城市每晚上限 600 元。", "travel.md", "第一条", "t#0")], 10, 0)
STALL_CAP_S = 30.0  # how long a stalling server stalls at most before it answers well
ID = next("11010119900307123" + c for c in "0123456789X" if id_card_valid("11010119900307123" + c))

Serve = Callable[["_Handler", dict[str, Any]], None]


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        try:
            self.server.serve(self, body)
        except OSError:  # the client hung up, as it should once its deadline passed
            self.server.hung_up.set()

    def send_json(self, obj: Any) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, delta: dict[str, Any], finish: str | None = None) -> None:
        chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        self.wfile.write(b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n")
        self.wfile.flush()

    def done(self) -> None:
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def stall(self, write: Callable[[], None]) -> None:
        """`write` every 50 ms until the test is done or `STALL_CAP_S` passed."""
        ends = time.monotonic() + STALL_CAP_S
        while not self.server.release.is_set() and time.monotonic() < ends:
            write()
            self.server.release.wait(0.05)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, serve: Serve) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.serve = serve
        self.release = threading.Event()
        self.hung_up = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@pytest.fixture
def server() -> Iterator[Callable[[Serve], _Server]]:
    started: list[_Server] = []

    def start(serve: Serve) -> _Server:
        srv = _Server(serve)
        threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.release.set()
        srv.shutdown()
        srv.server_close()


def _client(url: str, timeout_s: float = 30.0) -> OpenAICompatibleClient:
    return OpenAICompatibleClient(api_key="k-1234567890abcdef", model="m", base_url=url, timeout_s=timeout_s,
                                  max_retries=0)


def _completion(content: Any, finish: str = "stop") -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": content}}]}


def _reasoning_forever(h: _Handler, body: dict[str, Any]) -> None:
    """A reasoning model that thinks (no answer text) until released, then answers."""
    h.start_stream()
    h.event({"role": "assistant", "content": ""})
    h.stall(lambda: h.event({"reasoning_content": "嗯"}))
    h.event({"content": REPLY})
    h.event({}, "stop")
    h.done()


def _trickle_then(reply: dict[str, Any]) -> Serve:
    """A gateway that sends a keep-alive space every 50 ms until released, then the JSON `reply`."""

    def serve(h: _Handler, body: dict[str, Any]) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        h.stall(lambda: (h.wfile.write(b"1\r\n \r\n"), h.wfile.flush()))
        data = json.dumps(reply, ensure_ascii=False).encode()
        h.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n0\r\n\r\n")
        h.wfile.flush()

    return serve


def _store(tmp_path: Path, llm: Any):
    a = fake_assistant(tmp_path / "store", llm=llm)
    assert a.ingest_bytes(TRAVEL.encode(), "travel.md").ok
    return a


# -- 1: every model call has a wall-clock deadline -------------------------------------------------------


def test_a_stream_that_only_thinks_ends_at_the_deadline_and_hangs_up(server):
    srv = server(_reasoning_forever)
    with pytest.raises(LLMError, match="超时") as info:
        list(_client(srv.url, timeout_s=1.0).stream("问题"))
    assert info.value.kind == "timeout"
    assert srv.hung_up.wait(STALL_CAP_S)  # the connection was closed, not left reading


def test_a_reply_trickled_by_a_gateway_ends_at_the_deadline(server):
    srv = server(_trickle_then(_completion(REPLY)))
    with pytest.raises(LLMError, match="超时") as info:
        _client(srv.url, timeout_s=1.0).complete("问题")
    assert info.value.kind == "timeout"
    assert srv.hung_up.wait(STALL_CAP_S)


def test_a_chat_answer_from_a_model_that_only_thinks_is_the_offline_quote(tmp_path, server):
    a = _store(tmp_path, _client(server(_reasoning_forever).url, timeout_s=1.0))
    shown: list[str] = []
    t = a.ask(FOUND, user="", on_token=shown.append)
    assert t.answer.endswith(MODEL_DOWN_NOTE) and "600" in t.answer and "超时" in t.answerer
    assert "".join(shown).endswith(MODEL_DOWN_NOTE)


def test_a_rewrite_has_a_short_deadline_of_its_own(server, monkeypatch):
    monkeypatch.setattr(llm_module, "SHORT_CALL_S", 0.5)  # the client's own limit (30 s) is far longer
    srv = server(_trickle_then(_completion("二线城市出差住宿上限是多少？")))
    fallback = Rewrite("二线城市住宿上限是多少？", "那…呢")
    got = llm_rewrite(_client(srv.url), "那二线城市呢？", [(FOUND, REPLY)], "那…呢", fallback=fallback)
    assert got is fallback


def test_fact_extraction_has_a_short_deadline_and_falls_back_to_the_rules(server, monkeypatch):
    monkeypatch.setattr(extraction, "FACTS_DEADLINE_S", 0.5)
    srv = server(_trickle_then(_completion('{"content": "用户在研发部", "kind": "profile"}')))
    facts, method = extract_facts("我在研发部", "", _client(srv.url))
    assert method == "rules" and [f.content for f in facts] == ["用户在研发部工作"]


# -- 2: a reply cut off never ends in part of a number ------------------------------------------------------


def _stream_cut(pieces: list[str]) -> Serve:
    def serve(h: _Handler, body: dict[str, Any]) -> None:
        h.start_stream()
        for piece in pieces:
            h.event({"content": piece})
        h.event({}, "length")
        h.done()

    return serve


@pytest.mark.parametrize("number", [ID[:17], "一三九一二三四五六七"])
def test_a_stream_stopped_for_its_length_inside_a_number_drops_the_part(server, number):
    srv = server(_stream_cut(["员工张三的证件", "号码为", number[:6], number[6:]]))
    shown: list[str] = []
    composed = compose_answer("q", ONE, _client(srv.url), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert number not in text and number[:7] not in text, text
        assert text.startswith("员工张三的证件号码为") and text.endswith(CUT_NOTE)


def test_a_reply_stopped_for_its_length_without_streaming_drops_the_part(server):
    srv = server(lambda h, body: h.send_json(_completion("请联系王五1391234567", finish="length")))
    assert _client(srv.url).complete("问题") == f"请联系王五\n\n{CUT_NOTE}"


def test_a_whole_stream_ending_in_a_number_is_shown_whole(server):
    def serve(h: _Handler, body: dict[str, Any]) -> None:
        h.start_stream()
        for piece in ["每晚上限", "6", "00"]:
            h.event({"content": piece})
        h.event({}, "stop")
        h.done()

    assert "".join(_client(server(serve).url).stream("问题")) == "每晚上限600"


def test_the_engine_cap_never_leaves_most_of_a_mobile_number():
    shown: list[str] = []
    reply = "甲" * (ANSWER_MAX_CHARS - 15) + "联系人王五13912345678"
    composed = compose_answer("q", ONE, QueuedLLM(reply, piece_chars=7), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert "1391234" not in text and text.endswith(f"联系人王五\n\n{CUT_NOTE}"), text[-40:]


# -- 3: a content that is not a string ----------------------------------------------------------------------


def test_a_content_of_text_parts_is_joined(server):
    parts = [{"type": "text", "text": "一线城市每晚上限600元"}, {"type": "text", "text": "[资料1]。"}]
    assert _client(server(lambda h, body: h.send_json(_completion(parts))).url).complete("问题") == REPLY


@pytest.mark.parametrize("content", [{"text": REPLY}, 600, [{"type": "image_url", "image_url": {"url": "x"}}]])
def test_a_content_that_is_no_text_is_unreadable_and_answered_offline(tmp_path, server, content):
    url = server(lambda h, body: h.send_json(_completion(content))).url
    with pytest.raises(LLMError) as info:
        _client(url).complete("问题")
    assert info.value.kind == "response"
    t = _store(tmp_path, _client(url)).ask(FOUND, user="")  # no on_token: the CLI and eval path
    assert t.answer.endswith(MODEL_DOWN_NOTE) and "大模型不可用" in t.answerer


# -- 4: a reply of only citations the prompt never had ------------------------------------------------------


@pytest.mark.parametrize("reply", ["[资料7]", "[资料3][资料4]。", " [资料2]，[资料9]！"])
def test_a_reply_of_only_unknown_citations_is_answered_offline(reply):
    composed = compose_answer(FOUND, ONE, QueuedLLM(reply), on_token=lambda piece: None)
    assert composed.text.endswith(MODEL_DOWN_NOTE) and "600" in composed.text
    assert composed.answerer.startswith("extractive") and "大模型不可用" in composed.answerer
