"""Review 51h 1-2: a reply cut for its length keeps no part of an e-mail address or of an amount.

The stream tests run the real `openai` client against a loopback server (helpers from test_llm_fix51); the
engine-cap tests cut a fake model's reply at `ANSWER_MAX_CHARS`. Both the streamed text and the stored one
are checked: the stream holds back what may still be written, so the page never shows more than is stored.
"""

from __future__ import annotations

import pytest
from fakes import QueuedLLM
from test_llm_fix51 import ONE, _client, _stream_cut, server  # noqa: F401

from rag_core.answer.answering import ANSWER_MAX_CHARS, compose_answer
from rag_core.answer.cut_number import number_in_progress, without_cut_number
from rag_core.answer.llm import CUT_NOTE


@pytest.mark.parametrize("pieces", [["请联系人事王五，邮箱 ", "wangwu.hr@", "starc"],
                                    ["请联系人事王五，邮箱 ", "wangwu.hr", "@starc"],
                                    ["请联系人事王五，邮箱 wang", "wu.hr@st", "arc"]])
def test_a_stream_stopped_for_its_length_inside_an_email_shows_no_address(server, pieces):  # noqa: F811
    srv = server(_stream_cut(pieces))
    shown: list[str] = []
    composed = compose_answer("q", ONE, _client(srv.url), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert "wangwu" not in text and "@" not in text, text
        assert text.startswith("请联系人事王五，邮箱") and text.endswith(CUT_NOTE), text


@pytest.mark.parametrize("piece_chars", [3, 7])
def test_the_engine_cap_inside_an_email_shows_no_address(piece_chars):
    head = "联系人王五，邮箱 wangwu.hr@starc"
    reply = "甲" * (ANSWER_MAX_CHARS - len(head)) + "联系人王五，邮箱 wangwu.hr@starcorp.com。"
    shown: list[str] = []
    composed = compose_answer("q", ONE, QueuedLLM(reply, piece_chars=piece_chars), on_token=shown.append)
    for text in (composed.text, "".join(shown)):
        assert "wangwu" not in text and "@" not in text, text[-60:]
        assert text.endswith(f"联系人王五，邮箱\n\n{CUT_NOTE}"), text[-60:]


@pytest.mark.parametrize("cut,kept", [
    ("邮箱 wangwu.hr@starc", "邮箱"),
    ("邮箱：wangwu.hr@", "邮箱："),
    ("邮箱 wangwu.hr@163", "邮箱"),
    ("邮箱 wangwu.hr@starcorp.", "邮箱"),
    ("邮箱ｗａｎｇｗｕ＠ｓｔａｒｃ", "邮箱"),
    ("请发邮件至王小明@公司。中", "请发邮件至"),
])
def test_a_cut_inside_an_address_drops_the_address(cut, kept):
    assert without_cut_number(cut) == kept


@pytest.mark.parametrize("text", ["请登录 OA 系统", "邮箱 a@b.com，电话另行通知", "上限600元。", "联系人王五"])
def test_a_cut_after_an_ended_address_or_plain_text_keeps_it(text):
    assert without_cut_number(text) == text


def test_an_address_being_written_is_held_back_until_it_ends():
    assert number_in_progress("邮箱 wangwu.hr@starc") == len("邮箱")
    assert number_in_progress("邮箱 wangwu.hr") == len("邮箱")  # the @ may come in the next piece
    assert number_in_progress("邮箱 a@b.com，谢谢") == len("邮箱 a@b.com，谢谢")
