"""Review 55h #4: a follow-up typed in a tab whose conversation was deleted in another tab was answered as a new
question, and the notice saying so was drawn in the run that then reran for the answer, so nobody saw it."""

from __future__ import annotations

from pathlib import Path

from app_support import open_chat
from fakes import fake_assistant_with_samples

from rag_core import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")




def test_a_follow_up_after_the_conversation_went_says_it_was_answered_without_it(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask("出差住宿标准是多少？", actor=LOCAL, conversation="c1")
    at = open_chat(a, tmp_path, monkeypatch, "c1")
    a.delete_conversation("c1", actor=LOCAL)  # another tab
    at.chat_input[0].set_value("那一线城市呢？").run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(s.value for s in at.success)
    assert "原来的对话已不存在" in said and "没有参考之前的对话内容" in said, said
    [new] = a.list_conversations("local", actor=LOCAL)  # answered in a new conversation, which the tab now shows
    assert new.id != "c1" and "那一线城市呢？" in " ".join(m.value for m in at.markdown)


def test_opening_a_gone_address_still_says_so_and_nothing_is_announced_later(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    at = open_chat(a, tmp_path, monkeypatch, "no-such-conversation")
    assert any("这个对话不存在或已被删除" in i.value for i in at.info)
    at.chat_input[0].set_value("年假有几天？").run()  # asked after the page said so: a new conversation, said before
    assert not at.exception, [e.value for e in at.exception]
    assert not [s.value for s in at.success if "原来的对话已不存在" in s.value]
