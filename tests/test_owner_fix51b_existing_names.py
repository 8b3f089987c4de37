"""The name rule is for names and conversation ids typed anew (review rev51e 1): an account named by an e-mail or
a phone number before names were restricted (there is no rename), its memories, and a conversation whose id was
drawn before ids were redrawn are still used; a new such name or id is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

import ui.state
from rag_core import Principal
from rag_core.text.inputs import InputError

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal(user="local", role="admin")
EMAIL = "zhang.san@corp.com"
ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。\n"
OLD_ID = "19461922995d"  # a uuid4().hex[:12] as drawn before new ids were redrawn: reads as a phone number


def with_old_account(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("admin", "admin", "pw-123456789", actor=LOCAL)
    a.accounts.add(EMAIL, "employee", "pw-123456789")  # as the store kept it before add_user refused such names
    a.memory.add(EMAIL, "我在杭州办公室")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=Principal("admin", "admin")).ok
    return a, a.session_principal(a.login(EMAIL, "pw-123456789"))


def test_an_account_named_by_an_email_still_asks_and_keeps_its_memories(tmp_path):
    a, me = with_old_account(tmp_path)
    assert a.ask("年假几天", actor=me).answer
    conversation = a.new_conversation_id()
    assert a.ask("年假几天", actor=me, conversation=conversation).turn == 1
    assert [m.content for m in a.list_memories(me.user, actor=me)] == ["我在杭州办公室"]
    assert a.remember(me.user, "我在研发部", actor=me)[0]
    a.record_feedback(a.ask("年假几天", actor=me), 1, actor=me)
    admin = Principal("admin", "admin")
    assert len(a.list_memories(EMAIL, actor=admin)) == 2  # an administrator sees and manages them too
    assert a.checked_memory_owner(EMAIL) == EMAIL
    assert a.purge_memories(EMAIL, actor=admin).count == 2


def test_a_new_name_with_personal_data_is_still_refused(tmp_path):
    a, me = with_old_account(tmp_path)
    admin = Principal("admin", "admin")
    for call in (lambda: a.ask("年假几天", user="li.si@corp.com", actor=admin),
                 lambda: a.remember("li.si@corp.com", "我在杭州办公室", actor=admin),
                 lambda: a.list_memories("13800138000", actor=admin),
                 lambda: a.checked_memory_owner("li.si@corp.com"),
                 lambda: a.record_feedback(a.ask("年假几天", actor=me), 1, user="li.si@corp.com", actor=admin)):
        with pytest.raises(InputError, match="用户名不能含"):
            call()


def test_an_existing_conversation_whose_id_reads_as_a_phone_number_goes_on(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=LOCAL).ok
    a.conversations.ensure(OLD_ID, "local", "年假几天")  # kept by an older version
    a.conversations.add_turn(OLD_ID, "年假几天", "年假几天", "五天", {"question": "年假几天", "answer": "五天"})
    assert a.ask("那要提前几天申请", actor=LOCAL, conversation=OLD_ID).turn == 2
    with pytest.raises(InputError, match="对话编号"):
        a.ask("年假几天", actor=LOCAL, conversation="13800138000")  # a new one is still refused


def test_an_existing_conversation_of_someone_else_stays_refused(tmp_path):
    a, me = with_old_account(tmp_path)
    a.conversations.ensure(OLD_ID, "admin", "年假几天")
    with pytest.raises(Exception, match="属于其他用户"):
        a.ask("年假几天", actor=me, conversation=OLD_ID)


def test_the_memories_page_shows_memories_kept_under_an_email(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.memory.add(EMAIL, "我在杭州办公室")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    at.text_input(key="memory_owner_box").set_value(EMAIL).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert any(b.label == "清空全部记忆" and not b.disabled for b in at.button)
