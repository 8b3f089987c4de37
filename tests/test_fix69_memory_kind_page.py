"""Review 372 #4: 技术细节 → 记忆得分 named a memory's type by the engine's code (profile) where 使用的记忆 above it
said 个人信息. `memories_frame` names it, for the chat's trace and the memories page alike."""

from __future__ import annotations

from app_support import open_chat
from fakes import fake_assistant_with_samples

from rag_core.types import MEMORY_KIND_NAMES, MemoryHit
from ui.trace_view import memories_frame


def test_the_frame_names_every_kind_in_chinese():
    hits = [MemoryHit(f"m{i}", "用户常驻杭州", kind, 0.8, 0.9, 1.0, 0.72, "2026-12-01T00:00:00+00:00")
            for i, kind in enumerate(MEMORY_KIND_NAMES)]
    assert list(memories_frame(hits)["类型"]) == list(MEMORY_KIND_NAMES.values())


def test_the_chats_memory_scores_name_the_kind_as_the_list_above_them(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "data")
    at = open_chat(a, tmp_path, monkeypatch)
    at.chat_input[0].set_value("我常驻杭州").run()
    at.chat_input[0].set_value("我出差住宿标准是多少？").run()
    at.session_state["tech_t2"] = True  # 技术细节 of the second turn
    at.run()
    assert not at.exception
    scores = [df.value for df in at.dataframe if {"得分", "内容"} <= set(df.value.columns)]
    assert scores and all(kind == "个人信息" for frame in scores for kind in frame["类型"])
