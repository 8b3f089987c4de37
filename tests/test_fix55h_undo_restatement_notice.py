"""Review 55h #1: 撤销 on a repeated statement said the facts were deleted while they were kept from before."""

from __future__ import annotations

from pathlib import Path

from app_support import open_chat
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal(user="local", role="admin")
TOLD = "我是销售部的，常驻杭州"




def undo_buttons(at: AppTest) -> list:
    return [b for b in at.button if b.label == "撤销：不要记住这些"]


def test_the_facade_says_how_many_taken_back_facts_were_kept_from_before(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    first = a.ask(TOLD, actor=LOCAL, conversation="c1")
    again = a.ask(TOLD, actor=LOCAL, conversation="c1")
    assert len(again.acknowledged) == len(first.acknowledged) == 2
    undone = a.undo_acknowledged("c1", again.turn, actor=LOCAL)
    assert undone == 2 and undone.kept_before == 2 and undone.deleted == 0
    assert len(a.list_memories("local")) == 2  # both facts stay, as the turn's note says
    fresh = a.undo_acknowledged("c1", first.turn, actor=LOCAL)
    assert (fresh, fresh.kept_before, fresh.deleted) == (2, 0, 2)
    assert a.list_memories("local") == []


def test_undoing_a_restatement_on_the_page_does_not_say_deleted(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    a.ask(TOLD, actor=LOCAL, conversation="c1")
    a.ask(TOLD, actor=LOCAL, conversation="c1")
    at = open_chat(a, tmp_path, monkeypatch, "c1")
    undo_buttons(at)[-1].click().run()  # the second telling
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(s.value for s in at.success)
    assert "已删除" not in said, said
    assert "这次说的没有保存；其中 2 条以前就记住了" in said and "记忆管理" in said
    assert len(a.list_memories("local")) == 2
    undo_buttons(at)[-1].click().run()  # the first telling: now they go
    assert not at.exception, [e.value for e in at.exception]
    assert "已撤销：刚才记住的 2 条信息已删除。" in " ".join(s.value for s in at.success)
    assert a.list_memories("local") == []
