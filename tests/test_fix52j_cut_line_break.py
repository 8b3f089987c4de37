"""Review 52j #5: a reply cut at the length limit lost a complete amount that ended with a line break (年终奖上限
15000\\n cut to 年终奖上限); a line break ends a number, as `number_in_progress` already treats it."""

from __future__ import annotations

import pytest
from fakes import QueuedLLM
from test_llm_fix51 import ONE, _client, _stream_cut, server  # noqa: F401

from rag_core.answer.answering import ANSWER_MAX_CHARS, compose_answer
from rag_core.answer.cut_number import without_cut_number
from rag_core.answer.llm import CUT_NOTE

KEPT = "年假 5 天。\n年终奖上限 15000"


@pytest.mark.parametrize("tail", ["\n", "\n  ", "\r\n", " \n\t"])
def test_an_amount_ended_by_a_line_break_is_kept(tail: str) -> None:
    assert without_cut_number(KEPT + tail) == KEPT


def test_an_amount_cut_without_a_line_break_still_goes() -> None:
    assert without_cut_number(KEPT + " \t") == "年假 5 天。\n年终奖上限"


def test_the_engine_cap_right_after_a_line_break_keeps_the_amount() -> None:
    reply = "甲" * (ANSWER_MAX_CHARS - len("年终奖上限 15000\n")) + "年终奖上限 15000\n其余内容。"
    shown: list[str] = []
    composed = compose_answer("q", ONE, QueuedLLM(reply, piece_chars=5), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert text.endswith(f"甲年终奖上限 15000\n\n{CUT_NOTE}"), text[-40:]


def test_a_stream_stopped_for_its_length_after_a_line_break_keeps_the_amount(server) -> None:  # noqa: F811
    srv = server(_stream_cut(["年终奖上限 1", "5000", "\n"]))
    shown: list[str] = []
    composed = compose_answer("q", ONE, _client(srv.url), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert text == f"年终奖上限 15000\n\n{CUT_NOTE}", text
