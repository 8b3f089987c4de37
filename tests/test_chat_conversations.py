"""The chat page as a conversation (AppTest on the real engine): follow-ups, refresh, export, delete, statements."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_support import facade, point_the_app_at
from conftest import copy_store
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
FIRST_RUN_TIMEOUT = 600
RUN_TIMEOUT = 180

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def data_dir(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = copy_store(sample_store, tmp_path_factory.mktemp("chat_store") / "store")
    with pytest.MonkeyPatch.context() as patch:
        point_the_app_at(path, patch)
        at = AppTest.from_file(APP, default_timeout=FIRST_RUN_TIMEOUT)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        yield path


@pytest.fixture(autouse=True)
def app_environment(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_the_app_at(data_dir, monkeypatch)


def new_app(conversation: str | None = None) -> AppTest:
    """A new browser session (a refresh), optionally on an address naming a conversation."""
    at = AppTest.from_file(APP, default_timeout=RUN_TIMEOUT)
    if conversation:
        at.query_params["c"] = conversation
    at.run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def text_of(at: AppTest) -> str:
    parts: list[str] = []
    for kind in ("title", "markdown", "caption", "info", "warning", "error", "success"):
        parts.extend(str(el.value) for el in getattr(at, kind))
    return "\n".join(parts)


def answers(at: AppTest) -> list[str]:
    """The answer text of each assistant message, in order."""
    found = []
    for message in at.chat_message:
        if message.name == "assistant":
            found.append("\n".join(str(m.value) for m in message.markdown))
    return found


def button(at: AppTest, label: str):
    matches = [b for b in at.button if b.label == label]
    assert matches, f"no button {label!r}; have {[b.label for b in at.button]}"
    return matches[0]


def test_three_turn_dialogue_then_refresh_then_export_and_delete(data_dir: Path) -> None:
    at = new_app()
    ask(at, "出差住宿标准是多少？")
    conversation = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    ask(at, "那一线城市呢？")
    ask(at, "这个需要谁审批？")
    text = text_of(at)
    assert "检索用的问题：一线城市出差住宿标准是多少？" in text
    assert "检索用的问题：一线城市出差需要谁审批？" in text
    first, second, third = answers(at)
    assert "500元" in second and "制度里没有写这一条" not in second
    assert "批准" in third
    # the sidebar lists the conversation under its first question
    assert any(b.label == "出差住宿标准是多少？" and b.proto.type == "primary" for b in at.sidebar.button)

    # a refresh (a new session on the same address) shows the whole conversation again
    again = new_app(conversation)
    assert answers(again) == [first, second, third]
    assert "检索用的问题：一线城市出差住宿标准是多少？" in text_of(again)

    # export: the Markdown download holds the cited clause with its source
    downloads = [el for el in again.get("download_button")]
    assert len(downloads) == 2  # this conversation (Markdown) and the whole history (JSON)
    markdown = facade().export_conversation_markdown(conversation)
    assert "一类城市500元" in markdown and "03_travel_expense.md" in markdown and "第三条 出差审批" in markdown

    # delete asks first, then says it is done and the list no longer has it
    button(again, "确认删除").click().run()
    assert not again.exception, [e.value for e in again.exception]
    assert "已删除对话“出差住宿标准是多少？”（3 轮问答）" in text_of(again)
    assert not any(b.label == "出差住宿标准是多少？" for b in again.sidebar.button)
    assert answers(again) == []
    assert facade().conversations.get(conversation) is None


def test_a_statement_is_acknowledged_and_can_be_undone(data_dir: Path) -> None:
    at = ask(new_app(), "我是财务部的张三，我常驻杭州")
    [reply] = answers(at)
    assert "好的，我记住了" in reply and "您常驻杭州" in reply
    assert "制度里没有写这一条" not in reply
    button(at, "撤销：不要记住这些").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # 我是财务部的张三 is two facts, department and name (review 52k1 #3), and 我常驻杭州 a third
    assert "已撤销：刚才记住的 3 条信息已删除。" in text_of(at)
    assert not any(b.label == "撤销：不要记住这些" for b in at.button)


def test_rating_is_kept_with_the_turn(data_dir: Path) -> None:
    at = ask(new_app(), "打车费能报吗？")
    conversation = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    at.feedback[0].set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    assert facade().get_conversation(conversation).turns[0].rating == 1
    assert new_app(conversation).feedback[0].value == 1  # shown again after a refresh


def test_a_stale_address_starts_a_new_conversation(data_dir: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=RUN_TIMEOUT)
    at.query_params["c"] = "no-such-conversation"
    at.run()  # what a browser opening that address runs
    assert not at.exception, [e.value for e in at.exception]
    assert "这个对话不存在或已被删除" in text_of(at)
    assert "c" not in at.query_params


def test_the_chat_says_when_memory_was_searched_with(data_dir: Path) -> None:
    """Last in this module: it uploads a policy to the shared store."""
    policy = ROOT / "tests" / "data" / "sessions" / "uploads" / "通讯补贴管理规定.md"
    assert facade().ingest_file(policy).ok
    at = ask(new_app(), "我是做客户服务的")
    at = ask(at, "我一个月通讯费能补多少？")
    assert "检索时加上了记住的个人信息：我一个月通讯费能补多少？（是做客户服务的）" in text_of(at)
    assert "客户服务岗位员工，每人每月200元" in answers(at)[-1]
