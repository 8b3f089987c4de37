"""A library caller's conversation id that is no text, or a turn number SQLite cannot hold, gets a Chinese
ConversationError (review 323: AttributeError and OverflowError in English)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.store import ConversationError
from rag_core.errors import PermissionDenied, StoreDamaged
from rag_core.storage.row_ids import sqlite_int
from rag_core.types import Principal

ME = Principal("local", "admin")


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory):
    a = fake_assistant(tmp_path_factory.mktemp("ids") / "s")
    a.ingest_bytes("# 年假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode(), "leave.md", actor=ME)
    a.ask("年假有几天？", user="local", actor=ME, conversation="c1")
    return a


@pytest.mark.parametrize("call", ["get_conversation", "delete_conversation", "export_conversation_markdown"])
def test_an_id_that_is_no_text(assistant, call) -> None:
    with pytest.raises(ConversationError, match="对话编号应为文字"):
        getattr(assistant, call)(5, actor=ME)


@pytest.mark.parametrize("turn", [10**20, -(10**20), "x", 1.5, True])
def test_a_turn_number_no_row_can_have(assistant, turn) -> None:
    with pytest.raises(ConversationError, match="找不到对话 c1 的第"):
        assistant.rate_turn("c1", turn, 1, actor=ME)
    assert assistant.get_conversation("c1", actor=ME).turns[0].rating is None


def test_a_rating_read_back_reads_no_turn(assistant, monkeypatch) -> None:
    """The chat page reads the 👎's reason and the stored rating on every run: it read and masked the whole
    conversation to learn its owner (4 s a click at 4000 turns, review 323). The owner check reads no turn."""
    assistant.rate_turn("c1", 1, -1, actor=ME)
    monkeypatch.setattr(type(assistant.conversations), "_turns", lambda *a, **k: pytest.fail("read the turns"))
    assert assistant.turn_rating("c1", 1, actor=ME) == -1
    assert assistant.turn_rating("c1", 99, actor=ME) is None
    assistant.turn_feedback("c1", actor=ME)


def test_a_rating_read_back_is_the_owner_s(assistant) -> None:
    with pytest.raises(PermissionDenied):
        assistant.turn_rating("c1", 1, actor=Principal("other", "employee"))


@pytest.mark.parametrize("read", ["turn_rating", "turn_feedback"])
def test_a_damaged_conversation_store_is_named_in_chinese(tmp_path, read) -> None:
    """The rating read back and the 👎's reason read back check the owner in the conversations store: its damage is
    said naming that file (the owner check ran under the insights store's name, turn_rating under none: review 326)."""
    a = fake_assistant(tmp_path / "s")
    a.ingest_bytes("# 年假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode(), "leave.md", actor=ME)
    a.ask("年假有几天？", user="local", actor=ME, conversation="c1")
    a.rate_turn("c1", 1, -1, actor=ME)
    (tmp_path / "s" / "conversations.sqlite3").write_bytes(b"garbage" * 2000)
    with pytest.raises(StoreDamaged) as damaged:
        getattr(a, read)("c1", *([1] if read == "turn_rating" else []), actor=ME)
    assert str(damaged.value).startswith("conversations.sqlite3")


@pytest.mark.parametrize(("typed", "number"), [(7, 7), ("7", 7), (" -3 ", -3), ("+2", 2), (2**63 - 1, 2**63 - 1)])
def test_what_sqlite_holds_as_an_integer(typed, number) -> None:
    assert sqlite_int(typed) == number


@pytest.mark.parametrize("typed", [None, True, 1.5, "+-1", "--1", "１", "1_000", "", 2**63, -(2**63) - 1, [1]])
def test_what_sqlite_cannot_hold_is_none(typed) -> None:
    assert sqlite_int(typed) is None
