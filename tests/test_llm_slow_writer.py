"""A slow model writing a long answer is not cut at the call's limit: each piece of answer text gives the limit
again, so only a stream that shows no answer text for the whole limit (a model that only thinks) ends there.
Real `openai` client against a loopback server (tests/test_llm_fix51.py's)."""

from __future__ import annotations

import time

from test_llm_fix51 import REPLY, _client, server  # noqa: F401 (server is the fixture)


def _slow_writer(h, body) -> None:
    """Eight pieces of answer text 0.2 s apart: 1.6 s in all, against a limit of 1 s."""
    h.start_stream()
    h.event({"role": "assistant", "content": ""})
    for _ in range(8):
        h.event({"content": "年假"})
        time.sleep(0.2)
    h.event({"content": REPLY})
    h.event({}, "stop")
    h.done()


def test_a_slow_stream_of_answer_text_is_not_cut_at_the_limit(server) -> None:  # noqa: F811
    srv = server(_slow_writer)
    text = "".join(_client(srv.url, timeout_s=1.0).stream("问题"))
    assert text == "年假" * 8 + REPLY
