"""Review 52k1 #5: a memory must say something (a letter or a digit), and direction overrides are no part of it."""

from __future__ import annotations

import pytest

from rag_core.memory.extraction import parse_llm_facts
from rag_core.text.inputs import InputError
from tests.fakes import fake_assistant


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    return fake_assistant(tmp_path_factory.mktemp("mt") / "s")


@pytest.mark.parametrize("text", ["！！！", "👍", "👍👍 ！", "……", "\u202e！！"])
def test_text_with_no_letter_or_digit_is_refused(assistant, text):
    with pytest.raises(InputError, match="没有文字或数字"):
        assistant.remember("u1", text)
    assert assistant.list_memories("u1") == []


def test_direction_overrides_are_stripped(assistant):
    memory_id, _ = assistant.remember("u2", "我常驻\u202e州杭\u202c，主管是\u2066李四\u2069")
    [stored] = [m.content for m in assistant.list_memories("u2")]
    assert not any(ch in stored for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), repr(stored)
    assert "李四" in stored


def test_an_edit_is_held_to_the_same(assistant):
    memory_id, _ = assistant.remember("u3", "用户常驻杭州")
    with pytest.raises(InputError):
        assistant.update_memory_text(memory_id, "👍")
    assert assistant.update_memory_text(memory_id, "用户常驻\u202e上海") == "用户常驻上海"


def test_a_model_fact_with_nothing_in_it_is_dropped():
    assert parse_llm_facts('{"content": "！！！", "kind": "profile"}\n{"content": "用户常驻杭州", "kind": "profile"}') \
        == parse_llm_facts('{"content": "用户常驻杭州", "kind": "profile"}')
