"""Review 56 (fix-llm): the LLM answer path.

1. A streamed answer has a cap for the whole answer that no piece of answer text extends: a server that drips a
   character just inside each limit ends there, and the chat gives the offline quote (as for any failed answer).
2. The streamed answer is held back at every character masking reads as a digit (貳參陸 too).
3. A source the prompt did not have is removed however the model names it: （资料9）, 资料7第三条, 《资料8》, [Source 9].
4. A server's error text is masked before it reaches the turn's trace.

The client tests run the real `openai` client against a loopback server on a thread (tests/test_llm_fix51.py's).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from test_llm_fix51 import FOUND, STALL_CAP_S, _client, _store, server  # noqa: F401 (server is the fixture)

from rag_core.answer import llm as llm_module
from rag_core.answer.answering import ABANDONED_NOTE, MODEL_DOWN_NOTE
from rag_core.answer.citations import check_citations, remove_unknown_citations
from rag_core.answer.llm import LLMError, OpenAICompatibleClient
from rag_core.answer.masked_stream import MaskedStream
from rag_core.text.pii import redact_text
from rag_core.types import SourceRef

# -- 1: the whole streamed answer has a cap ------------------------------------------------------------------


def _drip(h, body: dict[str, Any]) -> None:
    """Answer text every 50 ms (well inside any limit) until the test is done or STALL_CAP_S passed."""
    h.start_stream()
    h.event({"role": "assistant", "content": ""})
    h.stall(lambda: h.event({"content": "年"}))
    h.event({}, "stop")
    h.done()


def test_a_dripping_stream_ends_at_the_whole_answer_cap(server) -> None:  # noqa: F811
    srv = server(_drip)
    client = _client(srv.url, timeout_s=0.5)  # built first: importing openai may take seconds on a busy machine
    started = time.monotonic()
    with pytest.raises(LLMError, match="超时") as info:
        list(client.stream("问题"))
    took = time.monotonic() - started
    assert info.value.kind == "timeout"
    assert took < 0.5 * llm_module.WHOLE_ANSWER_LIMITS + 2.0, took  # not STALL_CAP_S
    assert srv.hung_up.wait(STALL_CAP_S)  # the connection was closed, not left reading


def test_a_dripping_chat_answer_is_given_as_the_offline_quote(tmp_path, server) -> None:  # noqa: F811
    a = _store(tmp_path, _client(server(_drip).url, timeout_s=0.5))
    shown: list[str] = []
    t = a.ask(FOUND, user="", on_token=shown.append)  # without the cap: a 600-character answer after STALL_CAP_S
    assert t.answer.endswith(MODEL_DOWN_NOTE) and "600" in t.answer and "超时" in t.answerer
    streamed = "".join(shown)
    assert streamed.endswith(MODEL_DOWN_NOTE) and (not streamed.startswith("年") or ABANDONED_NOTE in streamed)


# -- 2: every Chinese digit masking reads holds the stream back ------------------------------------------------


@pytest.mark.parametrize("phone", ["壹參陸貳參陸貳參陸貳參", "壹叁陆贰叁陆贰叁陆贰叁", "一三八零零一三八零零零"])
def test_a_phone_in_financial_capitals_never_shows_while_streaming(phone: str) -> None:
    text = f"年假的规定请看制度原文，本人联系电话是{phone}，请知悉并转告同事们谢谢"
    assert phone not in redact_text(text)
    screen: list[str] = []
    stream = MaskedStream(screen.append)
    for char in text:
        stream(char)
        assert redact_text(text).startswith("".join(screen))
    stream.flush()
    assert "".join(screen) == redact_text(text)


# -- 3: unknown sources in any wording ----------------------------------------------------------------------

ONE = [SourceRef(1, "婚假三天，年假五天。", "leave.md", "第三条", "leave@v1#0")]


@pytest.mark.parametrize(
    ("reply", "kept", "removed"),
    [
        ("年假为5天（资料9）。", "年假为5天。", [9]),
        ("年假为5天(资料9)。", "年假为5天。", [9]),
        ("婚假三天，见资料7第三条。", "婚假三天，见第三条。", [7]),
        ("另见《资料8》。", "另见。", [8]),
        ("另见[Source 9]。", "另见。", [9]),
        ("另见【来源：9】。", "另见。", [9]),
        ("另见（资料１、资料９）。", "另见[资料1]。", [9]),
        ("见资料1-3。", "见[资料1]。", [2, 3]),
    ],
)
def test_a_source_the_prompt_never_had_is_removed_in_any_wording(reply: str, kept: str, removed: list[int]) -> None:
    assert remove_unknown_citations(reply, ONE) == (kept, removed)


@pytest.mark.parametrize(
    "reply",
    [
        "年假五天[资料1]。", "年假五天（资料1）。", "婚假见资料1第三条。", "见《资料1》。", "见[Source 1]。",
        "资料室在三楼，资料费10元。", "请提交证明资料2份、资料 3 页、资料1-3份。", "参考资料1.5版。", "资料2019年版。",
    ],
)
def test_a_real_source_or_material_that_is_no_source_is_untouched(reply: str) -> None:
    assert remove_unknown_citations(reply, ONE) == (reply, [])


def test_the_check_records_a_bare_unknown_source() -> None:
    answer, check = check_citations("婚假三天，见资料7第三条；另见《资料8》与 [资料 9 ] 及 [Source 9]。", ONE)
    assert check.removed == [7, 8, 9]
    assert "7" not in answer and "8" not in answer and "9" not in answer


# -- 4: a server's error text is masked -----------------------------------------------------------------------


def _refuse_with_personal_data(h, body: dict[str, Any]) -> None:
    data = ('{"error": {"message": "bad request for 电话13800138000 身份证110101199003074514", "type": "x"}}').encode()
    h.send_response(400)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(data)))
    h.end_headers()
    h.wfile.write(data)


def test_a_server_error_text_is_masked(tmp_path, server) -> None:  # noqa: F811
    client = _client(server(_refuse_with_personal_data).url)
    with pytest.raises(LLMError) as info:
        list(client.stream("问题"))
    message = str(info.value)
    assert "bad request" in message
    assert "13800138000" not in message and "110101199003074514" not in message
    a = _store(tmp_path, client)
    t = a.ask(FOUND, user="", on_token=lambda _: None)
    assert "bad request" in t.answerer and "13800138000" not in t.answerer


SECRET = "sk-REVIEWkeyABCDEFghijKLMN"


def _echo_split_key(h, body: dict[str, Any]) -> None:
    key = h.headers.get("Authorization", "")[len("Bearer "):]
    data = json.dumps({"error": {"message": f"bad key {key[:3]}-{key[3:12]} {key[12:]}"}}).encode()
    h.send_response(401)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(data)))
    h.end_headers()
    h.wfile.write(data)


def test_a_key_the_server_echoes_in_pieces_is_scrubbed(server) -> None:  # noqa: F811
    client = OpenAICompatibleClient(api_key=SECRET, model="m", base_url=server(_echo_split_key).url, max_retries=0)
    with pytest.raises(LLMError) as info:
        list(client.stream("问题"))
    message = str(info.value)
    assert "bad key" in message and info.value.kind == "auth"
    assert not any(SECRET[i : i + 6] in message for i in range(len(SECRET) - 5)), message
