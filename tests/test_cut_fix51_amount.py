"""Review 51h 2: a reply cut for its length keeps no part of an amount written with a comma, a decimal point
or in Chinese numerals (上限 1.5 cut to 上限 1. reads as another amount; 一万五 may be 一万五千 cut short)."""

from __future__ import annotations

import pytest
from fakes import QueuedLLM
from test_llm_fix51 import ONE, _client, _stream_cut, server  # noqa: F401

from rag_core.answer.answering import ANSWER_MAX_CHARS, compose_answer
from rag_core.answer.cut_number import without_cut_number
from rag_core.answer.llm import CUT_NOTE


@pytest.mark.parametrize("cut", ["每晚上限 1,5", "每晚上限 1.5", "每晚上限 1,", "每晚上限 1.", "每晚上限 1，5",
                                 "每晚上限 1．5", "每晚上限 1,500,0", "每晚上限一万五", "每晚上限一万", "每晚上限三千五百",
                                 "每晚上限1万5", "每晚上限1.5万"])
def test_a_cut_inside_an_amount_drops_all_of_it(cut):
    assert without_cut_number(cut) == "每晚上限"


@pytest.mark.parametrize("text", ["联系人王五", "统一", "请千万", "第3条规定"])
def test_a_name_or_word_ending_in_a_numeral_stays(text):
    assert without_cut_number(text) == text


@pytest.mark.parametrize("pieces", [["一线城市每晚上限 1", ",5"], ["一线城市每晚上限 1", ".", "5"],
                                    ["一线城市每晚上限一", "万", "五"]])
def test_a_stream_stopped_for_its_length_inside_an_amount_drops_all_of_it(server, pieces):  # noqa: F811
    srv = server(_stream_cut(pieces))
    shown: list[str] = []
    composed = compose_answer("q", ONE, _client(srv.url), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert text == f"一线城市每晚上限\n\n{CUT_NOTE}", text


def test_the_engine_cap_inside_a_decimal_amount_drops_all_of_it():
    reply = "甲" * (ANSWER_MAX_CHARS - len("每晚上限 1.")) + "每晚上限 1.5万元。"
    shown: list[str] = []
    composed = compose_answer("q", ONE, QueuedLLM(reply, piece_chars=3), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert text.endswith(f"甲每晚上限\n\n{CUT_NOTE}"), text[-40:]
