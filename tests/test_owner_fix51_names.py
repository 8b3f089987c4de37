"""A memory owner, an asker or a conversation id carrying personal data is refused, never kept or shown raw
(review rev51b/rev51c: '张三 13800138000' typed as a memory owner, `ask --user zhang.san@example.com`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from app_support import point_the_app_at
from cli_support import invoke
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest
from test_inert_pages import markdown_strings

import rag_core.cli as cli
import rag_core.facade.owner_names as owner_names
import ui.state
from rag_core import Principal
from rag_core.text.inputs import InputError

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal(user="local", role="admin")
PHONE = "13800138000"
OWNER = f"张三 {PHONE}"
ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n"


def dumped(store: Path, *names: str) -> str:
    text = []
    for name in names:
        if (store / name).exists():
            db = sqlite3.connect(store / name)
            text.append("\n".join(db.iterdump()))
            db.close()
    return "\n".join(text)


def test_memory_actions_refuse_an_owner_name_with_personal_data(tmp_path):
    a = fake_assistant(tmp_path / "store")
    for call in (lambda: a.remember(OWNER, "我在杭州办公室", actor=LOCAL),
                 lambda: a.list_memories(OWNER, actor=LOCAL),
                 lambda: a.recall(OWNER, "年假", actor=LOCAL),
                 lambda: a.preview_forget(1, user=OWNER, actor=LOCAL),
                 lambda: a.checked_memory_owner(OWNER)):
        with pytest.raises(InputError, match="用户名不能含手机号") as refused:
            call()
        assert PHONE not in str(refused.value)
    assert a.memory_users(actor=LOCAL) == []
    assert PHONE not in dumped(tmp_path / "store", "memory.sqlite3", "audit.sqlite3")


def test_memories_kept_under_such_a_name_before_the_rule_can_still_be_purged(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.memory.add(OWNER, "我在杭州办公室")  # as an older version kept it
    assert a.purge_memories(OWNER, actor=LOCAL).count == 1
    with pytest.raises(InputError):
        a.purge_memories(f"李四 {PHONE}", actor=LOCAL)  # a name nobody has: no way to store one


def test_ask_refuses_an_asker_or_conversation_with_personal_data(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=LOCAL).ok
    with pytest.raises(InputError, match="用户名"):
        a.ask("年假几天", user=f"张三{PHONE}", actor=LOCAL)
    with pytest.raises(InputError, match="对话编号"):
        a.ask("年假几天", actor=LOCAL, conversation=PHONE)
    with pytest.raises(InputError, match="用户名"):
        a.record_feedback(a.ask("年假几天", actor=LOCAL), -1, user=f"张三{PHONE}", actor=LOCAL,
                          reason=a.feedback_reasons[0])
    assert PHONE not in dumped(tmp_path / "store", "conversations.sqlite3", "insights.sqlite3", "memory.sqlite3")


def test_a_new_conversation_id_never_reads_as_personal_data(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    drawn = iter(["19461922995d0000", "a1b2c3d4e5f60000"])  # the first one masks as a phone number
    monkeypatch.setattr(owner_names.uuid, "uuid4", lambda: SimpleNamespace(hex=next(drawn)))
    assert a.new_conversation_id() == "a1b2c3d4e5f6"


@pytest.fixture()
def store(monkeypatch, tmp_path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    (tmp_path / "store").mkdir()  # a reading command on a data dir that does not exist is refused (review 392 #6)
    return tmp_path / "store"


def test_cli_ask_with_personal_data_as_user_or_conversation_keeps_nothing(capsys, store, tmp_path):
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    assert invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "nianjia.md")).exit_code == 0
    r = invoke(capsys, "--data-dir", str(store), "ask", "年假几天", "--user", "zhang.san@example.com",
               "--conversation", "13812345678")
    assert r.exit_code != 0 and "用户名不能含" in r.stderr
    r = invoke(capsys, "--data-dir", str(store), "ask", "年假几天", "--conversation", "13812345678")
    assert r.exit_code != 0 and "对话编号不能含" in r.stderr
    text = dumped(store, "conversations.sqlite3", "insights.sqlite3", "audit.sqlite3")
    assert "zhang.san@example.com" not in text and "13812345678" not in text


def test_cli_memory_search_echoes_the_masked_question(capsys, store):
    r = invoke(capsys, "--data-dir", str(store), "memory", "search", "我的手机13812345678", "--user", "alice", "--json")
    assert r.exit_code == 0 and "13812345678" not in r.stdout and "[手机号]" in r.stdout


def app_on(assistant, tmp_path, monkeypatch) -> AppTest:
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    return at


def test_the_memories_page_refuses_a_typed_owner_with_personal_data(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    at = app_on(a, tmp_path, monkeypatch)
    at.switch_page("pages/memories.py").run()
    at.text_input(key="memory_owner_box").set_value(OWNER).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("用户名不能含手机号" in e.value for e in at.error)
    assert not [b for b in at.button if b.label == "保存记忆"]  # nothing to add under that name
    assert not [text for _kind, text in markdown_strings(at) if PHONE in text]
    assert a.memory_users(actor=LOCAL) == []


def test_the_memories_page_masks_an_owner_name_kept_before_the_rule(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.memory.add(OWNER, "我在杭州办公室")  # as an older version kept it
    at = app_on(a, tmp_path, monkeypatch)
    at.switch_page("pages/memories.py").run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.text_input(key="memory_owner_box")
    assert "张三" in box.help and PHONE not in box.help
