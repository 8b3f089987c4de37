"""The model client against servers that misbehave (review 59, rev-llm): a non-streamed reply the service cut is no
whole answer, a server that ignores `stream: true` still answers in the chat, and an API key inside the base URL's
path never reaches a message. A small server on loopback (a thread, no process) drives the real `openai` client."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fakes import fake_assistant

from rag_core.answer import llm
from rag_core.answer.answering import MODEL_DOWN_NOTE
from rag_core.answer.llm import CUT_NOTE, LLMError, OpenAICompatibleClient

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
FOUND = "一线城市住宿上限是多少？"
REPLY = "一线城市每晚上限600元[资料1]。"
KEY = "sk-SECRETkey1234567890abcd"


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        spec = self.server.spec
        time.sleep(spec.get("sleep", 0))
        if spec.get("html"):
            return self._send(b"<html>502</html>", "text/html")
        if body.get("stream") and "sse" in spec:  # an event stream, labelled spec["type"]
            return self._send(_events(spec["sse"]), spec.get("type", "text/event-stream"))
        if body.get("stream") and not spec.get("ignore_stream"):
            return self._send(b"", "text/event-stream")  # a stream without a single event
        message = {"role": "assistant", "content": spec.get("reply", REPLY)}
        choice: dict[str, Any] = {"index": 0, "message": message}
        if "finish" in spec:
            choice["finish_reason"] = spec["finish"]
        data = {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
        self._send(json.dumps(data, ensure_ascii=False).encode(), spec.get("type", "application/json"))

    def _send(self, data: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _events(pieces: list[str]) -> bytes:
    chunks = [{"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
               "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": "stop" if last else None}]}
              for last, piece in ((i == len(pieces) - 1, piece) for i, piece in enumerate(pieces))]
    return ("".join(f"data: {json.dumps(c, ensure_ascii=False)}\n\n" for c in chunks) + "data: [DONE]\n\n").encode()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, spec: dict[str, Any]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.spec = spec

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[_Server] = []

    def start(**spec: Any) -> _Server:
        server = _Server(spec)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _client(base_url: str, timeout_s: float = 5.0) -> OpenAICompatibleClient:
    return OpenAICompatibleClient(api_key=KEY, model="m", base_url=base_url, timeout_s=timeout_s, max_retries=0)


def _store(tmp_path, llm):
    a = fake_assistant(tmp_path / "store", llm=llm)
    assert a.ingest_bytes(TRAVEL.encode(), "travel.md").ok
    return a


# -- 1: a reply the service cut, not streamed (the CLI's ask, the evaluation) -------------------------------------


@pytest.mark.parametrize("finish", ["content_filter", "error"])
def test_a_non_streamed_reply_the_service_cut_is_an_llm_error(serve, finish):
    client = _client(serve(reply="一线城市每晚住宿上限", finish=finish).root + "/v1")
    with pytest.raises(LLMError, match="被服务中止") as info:
        client.complete("问题")
    assert finish in str(info.value) and info.value.kind == "response"


def test_the_cli_path_answers_offline_when_the_service_cut_the_reply(serve, tmp_path):
    a = _store(tmp_path, _client(serve(reply="一线城市每晚住宿上限", finish="content_filter").root + "/v1"))
    t = a.ask(FOUND, user="")  # no on_token: how `python -m rag_core ask` and the evaluation ask
    assert t.answer != "一线城市每晚住宿上限" and t.answer.endswith(MODEL_DOWN_NOTE)
    assert t.answerer.startswith("extractive") and "被服务中止" in t.answerer


def test_a_non_streamed_reply_without_a_finish_reason_is_whole(serve):
    """Some servers never send finish_reason on a plain reply; its JSON was read to its end, so nothing cut it."""
    assert _client(serve(reply=REPLY).root + "/v1").complete("问题") == REPLY


# -- 4: a server that ignores stream: true ---------------------------------------------------------------------


def test_a_server_that_ignores_stream_true_still_answers_in_the_chat(serve, tmp_path):
    reply = "一线城市每晚上限600元[资料1]。联系人电话13812345678。"
    a = _store(tmp_path, _client(serve(reply=reply, finish="stop", ignore_stream=True).root + "/v1"))
    shown: list[str] = []
    t = a.ask(FOUND, user="", on_token=shown.append)  # the chat page always streams
    assert t.answerer == "m", t.answerer
    assert "一线城市每晚上限600元[资料1]" in t.answer and "13812345678" not in t.answer  # masked as a stream is
    assert "".join(shown) == t.answer


def test_a_whole_reply_to_a_stream_keeps_the_reply_rules(serve):
    assert "".join(_client(serve(reply=REPLY, ignore_stream=True).root + "/v1").stream("问题")) == REPLY
    cut = _client(serve(reply=REPLY, finish="length", ignore_stream=True).root + "/v1")
    assert "".join(cut.stream("问题")) == f"{REPLY}\n\n{CUT_NOTE}"
    with pytest.raises(LLMError, match="被服务中止"):
        list(_client(serve(finish="content_filter", ignore_stream=True).root + "/v1").stream("问题"))
    with pytest.raises(LLMError, match="空白"):
        list(_client(serve(reply=" ", ignore_stream=True).root + "/v1").stream("问题"))


def test_a_stream_without_any_event_says_the_service_may_not_stream(serve):
    with pytest.raises(LLMError, match="不支持流式输出") as info:
        list(_client(serve().root + "/v1").stream("问题"))
    assert "连接被中断" not in str(info.value)


# -- review of 07f49a0: an event stream labelled application/json (some gateways) is read as a stream ------------


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8", "text/event-stream"])
def test_an_event_stream_is_read_as_one_whatever_its_label(serve, content_type):
    client = _client(serve(sse=["年假为十天", "[资料1]。"], type=content_type).root + "/v1")
    assert "".join(client.stream("问题")) == "年假为十天[资料1]。"


def test_a_whole_completion_labelled_json_is_still_read_as_one(serve):
    client = _client(serve(reply=REPLY, ignore_stream=True, type="application/json; charset=utf-8").root + "/v1")
    assert "".join(client.stream("问题")) == REPLY


# -- 6: an API key inside the base URL ---------------------------------------------------------------------------


def _failure(client: OpenAICompatibleClient, **kwargs: Any) -> str:
    with pytest.raises(LLMError) as info:
        client.complete("问题", **kwargs)
    return str(info.value)


def test_a_key_in_the_base_url_path_is_in_no_message(serve):
    unreachable = _client(f"http://127.0.0.1:9/{KEY}/v1")  # port 9: nothing listens
    assert "无法连接" in (said := _failure(unreachable)) and KEY not in said and "127.0.0.1:9" in said
    html = _client(serve(html=True).root + f"/{KEY}/v1")
    assert "无法解析" in (said := _failure(html)) and KEY not in said
    slow = _client(serve(sleep=1.0).root + f"/{KEY}/v1")
    assert "超时" in (said := _failure(slow, deadline_s=0.3)) and KEY not in said
    assert KEY not in repr(unreachable)


def test_redact_url_shows_a_base_url_without_its_user_and_password():
    redact_url = llm.redact_url  # public: the settings page shows LLM_BASE_URL with it
    assert redact_url("https://user:pa55@llm.example.com:8443/v1?api_key=x#f") == "https://llm.example.com:8443/v1"
    assert redact_url("") == "" and redact_url("http://[::1") == "(无效地址)"


def test_the_settings_page_shows_the_model_address_without_its_password(tmp_path, monkeypatch):
    """Review 215: every message redacted the base URL's user:password, the settings page showed it whole."""
    from app_support import point_the_app_at
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "store", llm_base_url="https://svc:Hunter2-pass@gw.example.com/v1")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception
    cells = [str(v) for df in at.dataframe for v in df.value.to_numpy().ravel()]
    assert "https://gw.example.com/v1" in cells and not any("Hunter2" in c for c in cells)
