"""Memory defects of review 341 (fake embedder, real SQLite, AppTest); each failed before its fix.

6. 导出全部记忆（JSON） gave UTC times (+00:00) and the desktop user's stored id `local`, where the conversation export
   gives local time and 本机用户 (`ui.timefmt.export_for_people`).
"""

from __future__ import annotations

import json

import streamlit as st
from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant


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
