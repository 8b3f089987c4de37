"""Memory defects of review 341 (fake embedder, real SQLite, AppTest); each failed before its fix.

1. A company rule told in chat (我们公司规定年假15天) was kept as the person's memory and recalled into the prompt of
   年假有几天？: a second, unreviewed policy source (seed 000's trap); the page took 公司规定病假工资按80%发 too.
4. 我常驻杭州，下个月结婚 beside 我常驻杭州，对花生过敏 was called the same memory: the wedding was kept nowhere.
6. 导出全部记忆（JSON） gave UTC times (+00:00) and the desktop user's stored id `local`, where the conversation export
   gives local time and 本机用户 (`ui.timefmt.export_for_people`).
"""

from __future__ import annotations

import json

import pytest
import streamlit as st
from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core import Principal
from rag_core.errors import MemoryStoreError


def test_the_memory_export_is_in_local_time_and_names_the_desktop_user(tmp_path, monkeypatch) -> None:
    captured: dict[str, object] = {}
    real = st.download_button

    def keep(label, data=None, *args, **kwargs):  # what the page would let the person download
        captured["data"] = data
        return real(label, b"", *args, **kwargs)

    monkeypatch.setattr(st, "download_button", keep)
    a = fake_assistant(tmp_path / "store", timezone="Asia/Shanghai")
    a.remember("local", "我常驻杭州")
    serve_desktop(a, tmp_path, monkeypatch)
    open_desktop_page("pages/memories.py")
    data = captured["data"]() if callable(captured["data"]) else captured["data"]
    exported = json.loads(data)
    assert exported["user"] == "本机用户"
    assert exported["memories"][0]["created_at"].endswith("+08:00"), exported["memories"][0]


def test_a_new_fact_beside_an_agreeing_one_is_kept_not_called_the_same(tmp_path) -> None:
    """#4: 我常驻杭州，下个月结婚 beside 我常驻杭州，对花生过敏 strengthened the old memory (one agreeing city) and the wedding
    was kept nowhere, while the page said 已有相同内容. A restatement (我在杭州上班) still strengthens."""
    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我常驻杭州，对花生过敏")
    _id, action = a.remember("local", "我常驻杭州，下个月结婚")[:2]
    assert action == "added"
    assert any("结婚" in m.content for m in a.list_memories("local"))
    assert a.remember("local", "我常驻杭州")[1] == "strengthened"
    assert len(a.list_memories("local")) == 2


@pytest.mark.parametrize("told", ["我们公司规定年假15天", "我们公司婚假给15天", "我们这里规定试用期不能请年假",
                                  "我们规定报销上限5000元"])
def test_a_company_rule_told_in_chat_or_on_the_page_is_no_memory(tmp_path, told) -> None:
    zhang = Principal("zhang", "employee")
    a = fake_assistant_with_samples(tmp_path / "store")
    a.ask(told, user="zhang", actor=zhang)
    assert a.list_memories("zhang", actor=zhang) == []
    with pytest.raises(MemoryStoreError, match="制度规定的内容"):
        a.remember("zhang", told, actor=zhang)


def test_a_fact_about_the_persons_own_leave_is_still_a_memory(tmp_path) -> None:
    zhang = Principal("zhang", "employee")
    a = fake_assistant_with_samples(tmp_path / "store")
    a.remember("zhang", "我老婆产假休了半年", actor=zhang)
    assert len(a.list_memories("zhang", actor=zhang)) == 1


@pytest.mark.parametrize(("first", "then"), [("我工龄8年", "我工龄10年"), ("我有一个孩子", "我有两个孩子"),
                                             ("我入职3年了", "我入职5年了")])
def test_a_fact_told_again_with_another_number_replaces_the_older(tmp_path, first, then) -> None:
    """#3: both stayed active and both were recalled, the older first."""
    a = fake_assistant(tmp_path / "store")
    a.remember("local", first)
    a.remember("local", then)
    assert [m.content for m in a.list_memories("local")] == [then]


def test_episodes_with_other_numbers_are_all_kept(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我第3次去上海出差", kind="episode")
    a.remember("local", "我第5次去上海出差", kind="episode")
    assert len(a.list_memories("local")) == 2


def test_a_denial_takes_only_the_denied_clause_and_keeps_the_persons_voice(tmp_path) -> None:
    """Review 344 #1, #7, #10: a memory ending in 。 was trimmed of its 。 only and kept 常驻杭州 beside the denial; one
    without it was deleted whole, the allergy with it; a first-person memory lost its subject (对花生过敏)."""
    for typed in ("我常驻杭州，对花生过敏。", "我常驻杭州，对花生过敏"):
        a = fake_assistant(tmp_path / f"store{len(typed)}")
        a.remember("local", typed)
        a.ask("我已经不在杭州了", user="local")
        kept = [m.content for m in a.list_memories("local")]
        assert "我对花生过敏" in kept and not any("常驻杭州" in m for m in kept), kept


def test_a_trim_reads_a_clause_in_the_whole_text(tmp_path) -> None:
    """Review 344 #7: 常驻北京 after 老婆在研发部工作 is the wife's; the person's move leaves it."""
    from rag_core.memory.editing import without_changed
    from rag_core.memory.text import slots

    old = "用户常驻杭州，老婆在研发部工作，常驻北京"
    assert without_changed(old, slots("用户搬到上海了"), "用户搬到上海了") == "用户老婆在研发部工作，常驻北京"


def test_a_relatives_number_is_not_taken_by_the_persons_own(tmp_path) -> None:
    """Review 346 #1: 我今年35岁 cut 今年30岁 from 我老婆在研发部工作，今年30岁 (the clause read alone had no subject)."""
    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我老婆在研发部工作，今年30岁")
    a.remember("local", "我今年35岁")
    assert sorted(m.content for m in a.list_memories("local")) == ["我今年35岁", "我老婆在研发部工作，今年30岁"]


def test_news_about_someone_already_named_is_a_new_memory(tmp_path) -> None:
    """Review 346 #2: 老婆辞职了 was said already because 老婆 was (its verb was not), and 孩子对花生过敏 reworded the
    person's own allergy away."""
    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我常驻杭州，老婆在上海工作")
    assert a.remember("local", "我常驻杭州，老婆辞职了")[1] == "added"
    b = fake_assistant(tmp_path / "store2")
    b.remember("local", "我常驻杭州，对花生过敏")
    b.remember("local", "我常驻杭州，孩子对花生过敏")
    assert "我常驻杭州，对花生过敏" in [m.content for m in b.list_memories("local")]


@pytest.mark.parametrize("told", ["我按公司规定休了婚假", "我老婆公司规定产假半年", "这边我已经交了3次报销"])
def test_a_persons_own_fact_naming_a_rule_is_still_a_memory(tmp_path, told) -> None:
    """Review 346 #3: the company-rule refusal took the person's own facts too."""
    a = fake_assistant(tmp_path / "store")
    a.remember("local", told)
    assert [m.content for m in a.list_memories("local")] == [told]
