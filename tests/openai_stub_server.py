"""A tiny OpenAI-compatible server on loopback, so LLM tests use the real `openai` client.

Usage:

    with OpenAIStubServer(reply="...") as stub:
        client = OpenAICompatibleClient(api_key="k", model="m", base_url=stub.base_url)
        ...
        stub.requests[-1].body["messages"]

`reply` is a text, or a function of the request's JSON body giving one (a reply by what the prompt asks).
Modes: "ok" (default), "unauthorized" (HTTP 401 whose body echoes the key, like
real providers do) and "hang" (never answers until the server is closed).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

DEFAULT_REPLY = "根据制度,市内交通乘坐出租车的费用凭发票实报实销 [资料1]。"

Mode = Literal["ok", "unauthorized", "hang", "fail_once"]


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None

    @property
    def authorization(self) -> str:
        return self.headers.get("authorization", "")


@dataclass
class _State:
    reply: str | Callable[[dict[str, Any]], str]
    mode: Mode
    chunk_chars: int
    model_ids: list[str]
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)
    failed: bool = False  # mode "fail_once": the first request got its 502
    piece_delay_s: float = 0.0  # a model writing slowly: this long before each streamed piece


def _split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass

    # -- plumbing --------------------------------------------------------------

    def _record(self) -> RecordedRequest:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        rec = RecordedRequest(
            method=self.command,
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
        )
        state = self.server.state
        with state.lock:
            state.requests.append(rec)
        return rec

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _gate(self, rec: RecordedRequest) -> bool:
        """Apply the failure modes; True when the request was already answered."""
        state = self.server.state
        if state.mode == "hang":
            state.release.wait()  # set when the server closes
            self.close_connection = True
            return True
        if state.mode == "fail_once" and not state.failed:  # a gateway's passing 502: the next request is answered
            state.failed = True
            self._send_json(502, {"error": {"message": "bad gateway", "type": "server_error"}})
            return True
        if state.mode == "unauthorized":
            key = rec.authorization.removeprefix("Bearer ").strip()
            self._send_json(
                401,
                {
                    "error": {
                        "message": f"Incorrect API key provided: {key}. You can find your API key at https://example.invalid.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "invalid_api_key",
                    }
                },
            )
            return True
        return False

    # -- endpoints -------------------------------------------------------------

    def do_GET(self) -> None:
        rec = self._record()
        if self._gate(rec):
            return
        if self.path.rstrip("/") == "/v1/models":
            models = [
                {"id": m, "object": "model", "created": 0, "owned_by": "stub"} for m in self.server.state.model_ids
            ]
            self._send_json(200, {"object": "list", "data": models})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        rec = self._record()
        if self._gate(rec):
            return
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        body = rec.body or {}
        model = str(body.get("model", "stub-model"))
        reply = self.server.state.reply
        reply = reply(body) if callable(reply) else reply  # a reply per request: by what its prompt asks
        if body.get("stream"):
            self._stream(model, reply)
        else:
            self._complete(model, reply)

    def _complete(self, model: str, reply: str) -> None:
        self._send_json(
            200,
            {
                "id": "chatcmpl-stub",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )

    def _stream(self, model: str, reply: str) -> None:
        state = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def chunk(delta: dict[str, Any], finish: str | None = None) -> None:
            payload = {
                "id": "chatcmpl-stub",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            self.wfile.write(f"data: {json.dumps(payload, ensure_ascii=False)}\n\n".encode())
            self.wfile.flush()

        chunk({"role": "assistant", "content": ""})
        for piece in _split(reply, state.chunk_chars):
            time.sleep(state.piece_delay_s)
            chunk({"content": piece})
        chunk({}, finish="stop")
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a "hang" handler must not block close()
    state: _State


class OpenAIStubServer:
    """Context manager running the stub in a background thread on an ephemeral port."""

    def __init__(
        self,
        reply: str = DEFAULT_REPLY,
        mode: Mode = "ok",
        chunk_chars: int = 4,
        model_ids: list[str] | None = None,
    ) -> None:
        self._state = _State(
            reply=reply, mode=mode, chunk_chars=max(1, chunk_chars), model_ids=model_ids or ["stub-model"]
        )
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # configurable while running, so one server can serve several cases
    @property
    def reply(self) -> str | Callable[[dict[str, Any]], str]:
        return self._state.reply

    @reply.setter
    def reply(self, value: str | Callable[[dict[str, Any]], str]) -> None:
        self._state.reply = value

    @property
    def piece_delay_s(self) -> float:
        return self._state.piece_delay_s

    @piece_delay_s.setter
    def piece_delay_s(self, value: float) -> None:
        self._state.piece_delay_s = value

    @property
    def mode(self) -> Mode:
        return self._state.mode

    @mode.setter
    def mode(self, value: Mode) -> None:
        self._state.mode = value

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("stub server is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """What to pass as `base_url` / LLM_BASE_URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> OpenAIStubServer:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.state = self._state
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, args=(0.05,), name="openai-stub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._state.release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> OpenAIStubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def openai_stub(**kwargs: Any) -> Iterator[OpenAIStubServer]:
    """Function form for fixtures: `with openai_stub(reply=...) as stub: yield stub`."""
    with OpenAIStubServer(**kwargs) as stub:
        yield stub


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    from tests.loopback import free_port

    return free_port()
