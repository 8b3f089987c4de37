"""A model server that accepts and never answers costs one question its timeout, not every question (357 #9).

Against a real HTTP server (`OpenAIStubServer`, mode "hang"): after a call runs out its whole time the model is
paused, later questions are answered offline at once without a request reaching the server, the sidebar says so, and
when the pause ends one call tries again. A short call (the follow-up rewrite's 64 tokens) running out pauses nothing.
"""

from __future__ import annotations

import threading
import time

import pytest
from fakes import fake_assistant_with_samples
from openai_stub_server import OpenAIStubServer

from rag_core.answer import llm_pause
from rag_core.answer.answering import MODEL_DOWN_NOTE
from rag_core.answer.llm import LLMError, OpenAICompatibleClient, make_llm
from rag_core.answer.llm_pause import PAUSED, PausingLLM
from rag_core.settings import Settings

pytestmark = pytest.mark.slow  # a loopback HTTP server on a thread (as tests/conftest.py's SLOW_TESTS of test_llm.py)
PROMPT = "年假有几天？"
TIMEOUT_S = 0.4


def _client(stub: OpenAIStubServer) -> OpenAICompatibleClient:
    return OpenAICompatibleClient(api_key="k", model="m", base_url=stub.base_url, timeout_s=TIMEOUT_S, max_retries=0)


class _Clock:
    """`llm_pause._now`, moved on by hand."""

    def __init__(self) -> None:
        self.at = 1000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    now = _Clock()
    monkeypatch.setattr(llm_pause, "_now", now)
    return now


def _past_a_pause(stub: OpenAIStubServer, clock: _Clock) -> PausingLLM:
    """A client whose one call ran out its time (paused), the clock moved past the pause: the next call tries."""
    llm = PausingLLM(_client(stub))
    with pytest.raises(LLMError):
        llm.complete(PROMPT)
    clock.at += llm_pause.PAUSE_S + 1
    return llm


def test_make_llm_gives_the_pausing_client(tmp_path) -> None:
    llm = make_llm(Settings(data_dir=tmp_path, llm_api_key="k", llm_model_id="m"))
    assert isinstance(llm, PausingLLM) and llm.name == "m"


def test_run_out_call_pauses_until_the_pause_ends(clock: _Clock) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        llm = PausingLLM(_client(stub))
        with pytest.raises(LLMError) as first:
            list(llm.stream(PROMPT))
        assert first.value.kind == "timeout"
        asked = len(stub.requests)
        started = time.perf_counter()
        with pytest.raises(LLMError) as second:
            list(llm.stream(PROMPT))
        waited = time.perf_counter() - started
        assert second.value.kind == PAUSED and "秒后再试" in str(second.value)
        with pytest.raises(LLMError) as third:
            llm.complete(PROMPT)
        assert third.value.kind == PAUSED
        assert len(stub.requests) == asked  # neither reached the server
        assert waited < TIMEOUT_S / 2  # turned away, not timed out (a ratio of the call's own limit)
        assert llm.paused_for > 0
        stub.mode = "ok"
        clock.at += llm_pause.PAUSE_S + 1
        assert llm.paused_for == 0
        assert "".join(llm.stream(PROMPT))  # the try after the pause reaches the server and answers
        assert len(stub.requests) == asked + 1
        assert llm.complete(PROMPT)  # and the pause is over
        assert len(stub.requests) == asked + 2


def test_a_try_that_runs_out_again_starts_a_new_pause(clock: _Clock) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        llm = _past_a_pause(stub, clock)
        with pytest.raises(LLMError) as tried:
            llm.complete(PROMPT)
        assert tried.value.kind == "timeout"  # it did try
        asked = len(stub.requests)
        with pytest.raises(LLMError) as paused:
            llm.complete(PROMPT)
        assert paused.value.kind == PAUSED and len(stub.requests) == asked


def test_one_call_tries_after_the_pause_while_others_wait_offline(clock: _Clock) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        llm = _past_a_pause(stub, clock)
        trying = threading.Thread(target=lambda: pytest.raises(LLMError, llm.complete, PROMPT))
        trying.start()
        deadline = time.monotonic() + 5
        while len(stub.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(LLMError) as other:
            llm.complete(PROMPT)
        trying.join()
        assert other.value.kind == PAUSED and "正在重新尝试" in str(other.value)
        assert len(stub.requests) == 2


def test_a_short_call_running_out_pauses_nothing(clock: _Clock) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        llm = PausingLLM(_client(stub))
        with pytest.raises(LLMError) as short:
            llm.complete(PROMPT, max_tokens=64)
        assert short.value.kind == "timeout"
        with pytest.raises(LLMError) as bounded:
            llm.complete(PROMPT, deadline_s=0.2)
        assert bounded.value.kind == "timeout"
        stub.mode = "ok"
        assert llm.complete(PROMPT) and llm.paused_for == 0


def test_a_refused_key_pauses_nothing(clock: _Clock) -> None:
    with OpenAIStubServer(mode="unauthorized") as stub:
        llm = PausingLLM(_client(stub))
        for _ in range(2):
            with pytest.raises(LLMError) as refused:
                llm.complete(PROMPT)
            assert refused.value.kind == "auth"
        assert len(stub.requests) == 2 and llm.paused_for == 0


def test_stopped_stream_decides_nothing(clock: _Clock) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        llm = _past_a_pause(stub, clock)
        stub.mode = "ok"
        pieces = llm.stream(PROMPT)
        next(pieces)
        pieces.close()  # the caller stopped reading (an answer cut at its length)
        assert llm.complete(PROMPT)  # not left "trying" for ever
        assert llm.paused_for == 0


def test_hung_server_costs_one_question_its_timeout(tmp_path, clock: _Clock) -> None:
    with OpenAIStubServer(mode="hang") as stub:
        a = fake_assistant_with_samples(tmp_path / "store", llm_api_key="k", llm_model_id="stub-model",
                                        llm_base_url=stub.base_url, llm_timeout_s=TIMEOUT_S)
        first = a.ask("年假有几天？", user="u1", remember=False)
        assert MODEL_DOWN_NOTE in first.answer
        asked = len(stub.requests)
        assert asked >= 1
        assert a.llm_paused and "暂停" in a.llm_status
        streamed: list[str] = []
        second = a.ask("年假有几天？", user="u2", remember=False, on_token=streamed.append)
        assert MODEL_DOWN_NOTE in second.answer and "暂停调用" in second.answerer
        assert len(stub.requests) == asked  # answered offline without waiting on the server
        stub.mode = "ok"
        clock.at += llm_pause.PAUSE_S + 1
        assert not a.llm_paused and a.llm_status == "大模型：stub-model"
        third = a.ask("年假有几天？", user="u3", remember=False)
        assert MODEL_DOWN_NOTE not in third.answer and len(stub.requests) > asked


def test_sidebar_warns_while_paused(tmp_path, clock: _Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    from app_support import open_chat

    with OpenAIStubServer(mode="hang") as stub:
        a = fake_assistant_with_samples(tmp_path / "store", llm_api_key="k", llm_model_id="stub-model",
                                        llm_base_url=stub.base_url, llm_timeout_s=TIMEOUT_S)
        at = open_chat(a, tmp_path, monkeypatch)
        assert [s.value for s in at.sidebar.success] == ["大模型：stub\\-model"] and not at.sidebar.warning
        a.ask("年假有几天？", user="u1", remember=False)
        at.run()
        assert any("暂停调用" in w.value for w in at.sidebar.warning), [w.value for w in at.sidebar.warning]
        assert not at.sidebar.success


def test_a_short_call_running_out_while_trying_keeps_the_pause(clock: _Clock) -> None:
    """Review 366 #1: a follow-up rewrite (64 tokens) that tried the server after the pause and ran out ended the
    pause: every session's next question waited the full timeout again (here: two at once, one tries)."""
    with OpenAIStubServer(mode="hang") as stub:
        llm = _past_a_pause(stub, clock)
        with pytest.raises(LLMError) as short:
            llm.complete(PROMPT, max_tokens=64)
        assert short.value.kind == "timeout"
        asked = len(stub.requests)
        kinds: list[str] = []

        def ask() -> None:
            try:
                llm.complete(PROMPT)
            except LLMError as failure:
                kinds.append(failure.kind)

        both = [threading.Thread(target=ask) for _ in range(2)]
        for thread in both:
            thread.start()
        for thread in both:
            thread.join()
        assert sorted(kinds) == [PAUSED, "timeout"] and len(stub.requests) == asked + 1
