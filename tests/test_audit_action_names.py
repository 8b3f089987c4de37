"""Every action the trail records has one Chinese name, kept by the engine (`Assistant.audit_names`) and shown by the
audit page: the page kept its own table, which lacked the newer actions (以他人身份提问, 为他人添加记忆 …), and the
engine's table was read by nobody."""

from __future__ import annotations

from fakes import fake_assistant_with_samples
from test_pages_forms import open_page

from rag_core import Principal

ADMIN = Principal(user="local", role="admin")


def test_every_action_an_administrator_leaves_on_someone_elses_records_has_a_chinese_name(tmp_path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    trace = assistant.ask("我在杭州工作，年假有几天？", user="bob", conversation="bob-1", actor=ADMIN)
    assistant.record_feedback(trace, -1, user="bob", actor=ADMIN)  # an administrator rating for bob
    assistant.remember("bob", "我常驻杭州", actor=ADMIN)
    assistant.list_memories("bob", actor=ADMIN)
    assistant.preview_forget(0, user="bob", actor=ADMIN)  # the memories page's 预览 for someone else
    assistant.get_conversation("bob-1", actor=ADMIN)
    actions, outcomes = assistant.audit_names()
    rows = assistant.audit_entries(actor=ADMIN)
    recorded = {row.action for row in rows}
    assert {"ask.as", "memory.add", "memory.list", "memory.forget_preview", "feedback.give"} <= recorded, recorded
    assert all(row.action in actions for row in rows), [row.action for row in rows if row.action not in actions]
    assert recorded <= set(actions), sorted(recorded - set(actions))
    assert {row.outcome for row in rows} <= set(outcomes)


def test_the_audit_page_names_actions_from_the_engine(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("年假有几天？", user="bob", conversation="bob-1", actor=ADMIN)
    at = open_page(assistant, tmp_path, monkeypatch, "pages/audit.py")
    assert not at.exception
    shown = set(at.dataframe[0].value["操作"])
    assert "以他人身份提问" in shown and "ask.as" not in shown, shown
    assert "以他人身份提问" in next(s for s in at.selectbox if s.label == "操作").options
