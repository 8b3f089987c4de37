"""LLM client tests against a real HTTP stub on loopback (no patching of `openai`)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from openai_stub_server import DEFAULT_REPLY, OpenAIStubServer, closed_port, openai_stub

from rag_core.answer.llm import NOT_IN_POLICY, LLMClient, LLMError, OpenAICompatibleClient, make_llm
from rag_core.errors import RagError
from rag_core.settings import Settings

KEY = "sk-test-SECRET-0123456789abcdef"
MODEL = "stub-chat-1"
PROMPT = "你是公司的人事制度助手。只根据资料回答。\n\n[资料1] 第三条 市内交通\n乘坐出租车凭发票报销。\n\n问题:出租车费用怎么报销?"


@pytest.fixture
def stub() -> Iterator[OpenAIStubServer]:
    with openai_stub() as server:
        yield server


def _client(base_url: str, timeout_s: float = 10.0, **kw: object) -> OpenAICompatibleClient:
    return OpenAICompatibleClient(api_key=KEY, model=MODEL, base_url=base_url, timeout_s=timeout_s, **kw)  # type: ignore[arg-type]


def _chat_requests(stub: OpenAIStubServer) -> list[dict]:
    return [r.body or {} for r in stub.requests if r.path.endswith("/chat/completions")]


def test_not_in_policy_text() -> None:
    assert NOT_IN_POLICY == "制度里没有写这一条"


def test_complete_returns_reply(stub: OpenAIStubServer) -> None:
    client = _client(stub.base_url)
    assert client.name == MODEL
    assert isinstance(client, LLMClient)
    assert client.complete(PROMPT) == DEFAULT_REPLY
    assert "[资料1]" in DEFAULT_REPLY


def test_request_carries_model_temperature_prompt_and_key(stub: OpenAIStubServer) -> None:
    _client(stub.base_url).complete(PROMPT)
    (req,) = stub.requests
    assert req.method == "POST"
    assert req.path == "/v1/chat/completions"
    assert req.authorization == f"Bearer {KEY}"
    body = req.body or {}
    assert body["model"] == MODEL
    assert body["temperature"] == 0
    assert body["messages"] == [{"role": "user", "content": PROMPT}]
    assert not body.get("stream")


def test_a_short_job_bounds_the_reply_on_the_wire(stub: OpenAIStubServer) -> None:
    """The follow-up rewrite asks for at most 64 tokens; the bound must reach the server, and an
    answer (no bound) must not carry one."""
    from rag_core.conversations.rewrite import MAX_TOKENS, llm_rewrite

    client = _client(stub.base_url)
    llm_rewrite(client, "那一线城市呢？", [("出差住宿标准是多少？", "二线城市每晚400元。")], "那…呢")
    client.complete(PROMPT)
    rewrite, answer = _chat_requests(stub)
    assert rewrite["max_tokens"] == MAX_TOKENS
    assert "max_tokens" not in answer


def test_optional_system_message_is_sent_first(stub: OpenAIStubServer) -> None:
    _client(stub.base_url, system="只根据资料回答。").complete(PROMPT)
    (body,) = _chat_requests(stub)
    assert body["messages"] == [
        {"role": "system", "content": "只根据资料回答。"},
        {"role": "user", "content": PROMPT},
    ]


def test_stream_yields_several_deltas_joining_to_reply(stub: OpenAIStubServer) -> None:
    pieces = list(_client(stub.base_url).stream(PROMPT))
    assert len(pieces) >= 3
    assert all(pieces)
    assert "".join(pieces) == DEFAULT_REPLY
    (body,) = _chat_requests(stub)
    assert body["stream"] is True
    assert body["temperature"] == 0
    assert body["model"] == MODEL
    assert body["messages"][-1]["content"] == PROMPT


def test_custom_reply_and_models_endpoint(stub: OpenAIStubServer) -> None:
    stub.reply = NOT_IN_POLICY
    client = _client(stub.base_url)
    assert client.complete("问题") == NOT_IN_POLICY
    assert "".join(client.stream("问题")) == NOT_IN_POLICY
    import openai

    models = openai.OpenAI(api_key=KEY, base_url=stub.base_url, max_retries=0).models.list()
    assert [m.id for m in models] == ["stub-model"]


def test_401_raises_llm_error_without_key() -> None:
    with OpenAIStubServer(mode="unauthorized") as stub:
        client = _client(stub.base_url)
        with pytest.raises(LLMError) as info:
            client.complete(PROMPT)
        with pytest.raises(LLMError) as info_stream:
            list(client.stream(PROMPT))
        assert len(stub.requests) == 2  # auth failures are not retried
    for err in (info.value, info_stream.value):
        assert isinstance(err, RagError)
        assert err.status_code == 401
        assert err.kind == "auth"
        text = str(err)
        assert "401" in text and "LLM_API_KEY" in text
        assert KEY not in text and KEY[:6] not in text and KEY[-4:] not in text
        assert err.__cause__ is None  # the chained openai error would carry the key
        assert KEY not in repr(err)
    assert KEY not in repr(client)


def test_connection_refused_raises_llm_error() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    client = _client(url, max_retries=0)
    with pytest.raises(LLMError) as info:
        client.complete(PROMPT)
    assert info.value.kind == "connection"
    assert "无法连接" in str(info.value)
    assert KEY not in str(info.value)
    with pytest.raises(LLMError):
        list(client.stream(PROMPT))


def test_connection_refused_with_default_retry() -> None:
    client = _client(f"http://127.0.0.1:{closed_port()}/v1")
    with pytest.raises(LLMError, match="无法连接"):
        client.complete(PROMPT)


def test_timeout_raises_llm_error() -> None:
    with OpenAIStubServer(mode="hang") as stub:
        client = _client(stub.base_url, timeout_s=0.3, max_retries=0)
        start = time.monotonic()
        with pytest.raises(LLMError) as info:
            client.complete(PROMPT)
        assert time.monotonic() - start < 5
    assert info.value.kind == "timeout"
    assert "超时" in str(info.value)
    assert KEY not in str(info.value)


def test_make_llm_none_without_key_or_model(tmp_path) -> None:
    assert make_llm(Settings(data_dir=tmp_path)) is None
    assert make_llm(Settings(data_dir=tmp_path, llm_api_key=KEY)) is None
    assert make_llm(Settings(data_dir=tmp_path, llm_model_id=MODEL)) is None


def test_make_llm_uses_settings(stub: OpenAIStubServer, tmp_path) -> None:
    settings = Settings(
        data_dir=tmp_path, llm_api_key=KEY, llm_model_id=MODEL, llm_base_url=stub.base_url, llm_timeout_s=5
    )
    llm = make_llm(settings)
    assert llm is not None
    assert llm.name == MODEL
    assert llm.complete(PROMPT) == DEFAULT_REPLY
    assert stub.requests[-1].authorization == f"Bearer {KEY}"


def test_base_url_credentials_are_hidden_in_messages() -> None:
    port = closed_port()
    client = _client(f"http://user:pa55word@127.0.0.1:{port}/v1", max_retries=0)
    with pytest.raises(LLMError) as info:
        client.complete(PROMPT)
    assert "pa55word" not in str(info.value)
    assert f"127.0.0.1:{port}" in str(info.value)


def test_stream_timeout_raises_llm_error() -> None:
    with OpenAIStubServer(mode="hang") as stub:
        client = _client(stub.base_url, timeout_s=0.3, max_retries=0)
        with pytest.raises(LLMError) as info:
            list(client.stream(PROMPT))
    assert info.value.kind == "timeout"
    assert KEY not in str(info.value)
