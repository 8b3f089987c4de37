"""Review 60 (rev-run #7): a pasted book is refused as a memory, or as a memory search, before the masker reads it.

The memory text was masked in full before its length was checked (1M characters: 4.3 s, 4M: 18 s, then 记忆内容过长);
a memory search of 4.8M characters ranked every memory against it (25 s) with no limit, and the page's 搜索记忆 box
had none. Raw text over `MAX_RAW_CHARS` is refused with the same message before masking; the search goes through
the question's check (`text.inputs.checked`) with its bound, and the box is bounded.
"""

from __future__ import annotations

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant

import rag_core.memory.content as content_module
from rag_core import MemoryStoreError
from rag_core.memory.content import MAX_CONTENT_CHARS, MAX_RAW_CHARS
from rag_core.text.inputs import MAX_QUESTION_CHARS, InputError
from rag_core.types import Principal

ZHANG = Principal("zhang", "employee")
BOOK = "我常驻杭州，电话 13812345678。" * 200_000  # 4.2M characters, full of numbers the masker looks at


@pytest.fixture()
def assistant(tmp_path):
    return fake_assistant(tmp_path / "store")


@pytest.fixture()
def masked(monkeypatch) -> list[int]:
    """The length of every text the memory masker is given."""
    seen: list[int] = []
    real = content_module.redact_text

    def spy(text, *args, **kwargs):
        seen.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(content_module, "redact_text", spy)
    return seen


def test_a_pasted_book_is_refused_as_a_memory_before_it_is_masked(assistant, masked):
    with pytest.raises(MemoryStoreError, match=f"记忆内容过长（{len(BOOK)} 字），上限 {MAX_CONTENT_CHARS} 字"):
        assistant.remember("zhang", BOOK, actor=ZHANG)
    assert masked == []  # refused before the masker read a character
    assert assistant.list_memories("zhang", actor=ZHANG) == []


def test_a_pasted_book_is_refused_as_a_memory_edit_before_it_is_masked(assistant, masked):
    mid, _ = assistant.remember("zhang", "我常驻上海", actor=ZHANG)
    masked.clear()
    with pytest.raises(MemoryStoreError, match=f"上限 {MAX_CONTENT_CHARS} 字"):
        assistant.update_memory_text(mid, BOOK, actor=ZHANG)
    assert masked == []
    assert assistant.list_memories("zhang", actor=ZHANG)[0].content == "我常驻上海"


def test_the_store_refuses_raw_text_over_the_bound_itself(assistant, masked):
    with pytest.raises(MemoryStoreError, match="记忆内容过长"):
        assistant.memory.add("zhang", "杭" * (MAX_RAW_CHARS + 1))
    assert masked == []


def test_text_that_masking_and_spacing_shorten_under_the_limit_is_still_kept(assistant):
    """Within the raw bound, the limit is on the text as stored (spaces joined, personal data masked)."""
    text = "我常驻杭州" + " " * (MAX_CONTENT_CHARS * 3)
    mid, _ = assistant.remember("zhang", text + "办公室", actor=ZHANG)
    assert assistant.list_memories("zhang", actor=ZHANG)[0].content == "我常驻杭州 办公室"
    assert mid


def test_a_memory_search_is_bounded_like_a_question(assistant, monkeypatch):
    assistant.remember("zhang", "我常驻杭州", actor=ZHANG)
    ranked: list[str] = []
    real = type(assistant.memory)._rank
    monkeypatch.setattr(type(assistant.memory), "_rank",
                        lambda self, user, query, *a, **k: ranked.append(query) or real(self, user, query, *a, **k))
    with pytest.raises(InputError, match=f"最多 {MAX_QUESTION_CHARS} 个字"):
        assistant.list_memories("zhang", query="杭州" * 2_400_000, actor=ZHANG)
    assert ranked == []
    assert [m.content for m in assistant.list_memories("zhang", query=" 杭州 ", actor=ZHANG)] == ["我常驻杭州"]
    assert len(assistant.list_memories("zhang", query="  ", actor=ZHANG)) == 1  # blank: no search, every memory


def test_a_recall_of_a_pasted_book_is_refused_like_a_question(assistant, monkeypatch):
    assistant.remember("zhang", "我常驻杭州", actor=ZHANG)
    ranked: list[str] = []
    real = type(assistant.memory)._rank
    monkeypatch.setattr(type(assistant.memory), "_rank",
                        lambda self, user, query, *a, **k: ranked.append(query) or real(self, user, query, *a, **k))
    with pytest.raises(InputError, match=f"问题太长.*最多 {MAX_QUESTION_CHARS} 个字"):
        assistant.recall("zhang", "杭州" * 600_000, actor=ZHANG)
    assert ranked == []
    assert [m.content for m in assistant.recall("zhang", "我常驻哪里？杭州", actor=ZHANG)] == ["我常驻杭州"]


def test_the_memory_store_refuses_a_search_longer_than_a_question(assistant):
    with pytest.raises(MemoryStoreError, match="搜索内容太长"):
        assistant.memory.list("zhang", query="杭" * (MAX_QUESTION_CHARS + 1))


def test_the_search_box_is_bounded_and_a_long_search_says_why(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "s")
    a.remember("local", "我常驻杭州")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    box = next(t for t in at.text_input if t.label == "搜索记忆")
    assert box.max_chars and MAX_QUESTION_CHARS * 100 <= box.max_chars <= MAX_QUESTION_CHARS * 200
    box.set_value("杭州" * MAX_QUESTION_CHARS).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("搜索内容太长" in e.value and f"最多 {MAX_QUESTION_CHARS} 个字" in e.value for e in at.error)
