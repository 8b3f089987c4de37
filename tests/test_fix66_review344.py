"""Review 344's chat, login and memory-undo defects (fake embedders, real stores, AppTest; fixed at 73ce04f and
fe0a5dd). Each test is one of the review's reproductions and failed at 1d7558f:

- review 344 #2: a waiting question whose ask failed left the questions queued behind it shown but never asked.
- review 344 #3: undoing the earlier of two tellings brought back the clause the later one had taken (two departments).
- review 344 #4: undoing a telling that trimmed a memory overwrote what was changed there since (by hand, or told).
- review 344 #5: a desktop tab's question was asked as whoever logged in on another tab of the same browser.
- review 344 #6: a question sent right after a too-long paste was left unasked in the tab's outbox.
- review 344 #8: of two failed questions in a row, only the last failure was said, naming no question.

The browser's next send is a RerunException carrying what it would send, raised from the Streamlit call at which a
real run would have been stopped (tests/chat_preempt_support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from app_support import open_chat
from chat_preempt_support import LOCAL, asked, conversations, next_send, sample_assistant, shown, stop_at
from fakes import NearEmbedder

import ui.login
import ui.state
from rag_core import Principal, RagError
from rag_core.memory import MemoryStore

QUESTION = "出差住宿标准是多少？"
FOLLOW_UP = "那一线城市呢？"
SECOND_CITY = "二线城市呢？"
ANNUAL_LEAVE = "年假有几天？"
WEDDING_LEAVE = "婚假有几天？"
PASSWORD = "correct horse"
BOSS, LI = Principal("boss", "admin"), Principal("li", "employee")
OUTBOX_KEY = "chat_outbox"
OWNER = "wangwu"  # the memories' owner
TOLD = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)  # when the first memory was told; the rest follow day by day


@pytest.fixture(autouse=True)
def no_ask_outlives_its_test() -> Iterator[None]:
    """The asks in flight and the questions waiting are the server process's (ui.state): what a test's pages left
    there (a question queued and never asked, as before the fix) is dropped, so no later test finds it."""
    before = set(ui.state._ANSWERING), set(ui.state._WAITING)
    yield
    with ui.state._ANSWERING_LOCK:
        for listing, kept in zip((ui.state._ANSWERING, ui.state._WAITING), before):
            for key in set(listing) - kept:
                listing.pop(key, None)


def failing_first(assistant: Any, monkeypatch: pytest.MonkeyPatch, failures: int) -> list[str]:
    """The first `failures` asks raise the engine's error (the model service down, the try counted in the message);
    the rest are answered. Returns the questions asked, in order."""
    real_ask = assistant.ask
    calls: list[str] = []

    def ask(question: str, **kwargs: Any) -> Any:
        calls.append(question)
        if len(calls) <= failures:
            raise RagError(f"模型服务暂时不可用（第{len(calls)}次）")
        return real_ask(question, **kwargs)

    monkeypatch.setattr(assistant, "ask", ask)
    return calls


def test_questions_waiting_behind_a_failed_one_are_asked(tmp_path, monkeypatch) -> None:
    """#2: two questions wait their turn in a stored conversation and the first one's ask fails. Nothing else will
    rerun the page (no answer is being written, so no watcher runs): the run that said the failure must go on to
    the next, or it stays shown as 会接着回答 until the person clicks something."""
    a = sample_assistant(tmp_path)
    conversation = asked(a, QUESTION)
    calls = failing_first(a, monkeypatch, failures=1)
    tab = open_chat(a, tmp_path, monkeypatch, conversation)
    for question in (FOLLOW_UP, ANNUAL_LEAVE):  # sent while an answer was written: queued as main() queues them
        assert ui.state.wait_turn("local", conversation, question, question)
    tab.run()
    assert not tab.exception, [e.value for e in tab.exception]
    assert calls == [FOLLOW_UP, ANNUAL_LEAVE]  # each asked once, in the order sent
    assert any("回答失败" in e.value for e in tab.error), [e.value for e in tab.error]
    assert ui.state.waiting_questions("local", conversation) == []
    assert conversations(a) == {conversation: [QUESTION, ANNUAL_LEAVE]}


def test_every_failure_of_questions_sent_meanwhile_is_said_with_its_question(tmp_path, monkeypatch) -> None:
    """#8: three questions in the tab's outbox, the first two failing: once the reruns settle both failures are on
    screen, each naming its question (one kept message, the second overwrote the first), and the third is asked."""
    a = sample_assistant(tmp_path)
    conversation = asked(a, QUESTION)
    calls = failing_first(a, monkeypatch, failures=2)
    tab = open_chat(a, tmp_path, monkeypatch, conversation)
    # read from the box by runs the next send stopped: what the page's on_submit keeps in the tab
    tab.session_state[OUTBOX_KEY] = [{"question": q, "conversation": None, "typed_in": conversation}
                                     for q in (FOLLOW_UP, SECOND_CITY, ANNUAL_LEAVE)]
    tab.run()
    assert not tab.exception, [e.value for e in tab.exception]
    assert calls == [FOLLOW_UP, SECOND_CITY, ANNUAL_LEAVE]
    errors = [e.value for e in tab.error]
    assert any(FOLLOW_UP in e and "第1次" in e for e in errors), errors
    assert any(SECOND_CITY in e and "第2次" in e for e in errors), errors
    assert conversations(a) == {conversation: [QUESTION, ANNUAL_LEAVE]}


def test_a_desktop_tabs_question_is_not_asked_as_the_login_its_cookie_restores(tmp_path, monkeypatch) -> None:
    """#5: a desktop tab stays open while the first accounts are made and li logs in on another tab of the same
    browser (her session cookie). The question the desktop tab sends next was typed by whoever sat there: it must
    not be asked under li's name nor land in her history."""
    a = sample_assistant(tmp_path)
    tab = open_chat(a, tmp_path, monkeypatch)  # desktop mode: the local administrator
    a.add_user("boss", "admin", PASSWORD, actor=LOCAL)
    a.add_user("li", "employee", PASSWORD, actor=BOSS)
    li_token = a.login("li", PASSWORD)
    monkeypatch.setattr(ui.login, "_cookie_token", lambda: li_token)  # the browser now sends li's cookie
    private = "我下个月要离职，离职补偿怎么算？"
    tab.chat_input[0].set_value(private).run()
    assert not tab.exception, [e.value for e in tab.exception]
    assert conversations(a, "li", LI) == {}
    assert private not in shown(tab)


def test_a_question_sent_right_after_a_too_long_paste_is_asked(tmp_path, monkeypatch) -> None:
    """#6: a paste over the length limit is sent, then 婚假有几天？ at once (the run reading the paste stopped by the
    second send): the paste is refused and never asked, and the question behind it is asked without another click
    (the run ended on the refusal, leaving it in the outbox, drawn nowhere)."""
    a = sample_assistant(tmp_path)
    long_paste = "请问出差住宿标准的具体规定是什么，" * (a.MAX_QUESTION_CHARS // 10 + 5)
    assert a.question_too_long(long_paste)
    tab = open_chat(a, tmp_path, monkeypatch)
    box = tab.chat_input[0].id
    restore = stop_at(monkeypatch, "chat_input", 1, lambda: next_send(box, WEDDING_LEAVE))
    tab.chat_input[0].set_value(long_paste).run()
    restore()
    assert not tab.exception, [e.value for e in tab.exception]
    assert list(conversations(a).values()) == [[WEDDING_LEAVE]]
    assert tab.session_state[OUTBOX_KEY] == []
    assert WEDDING_LEAVE in shown(tab)
    # and the refusal is still on the page with the text to copy (the rerun that asked the question wiped it)
    assert any("删短再发送" in e.value for e in tab.error), [e.value for e in tab.error]


def day(n: int) -> datetime:
    return TOLD + timedelta(days=n)


def memory_store(tmp_path: Path) -> MemoryStore:
    """A fresh memory store. NearEmbedder: any two texts are near, so a later telling is matched with the trimmed
    memory by its terms (用户对花生和芒果过敏 strengthens 用户对花生过敏, as with e5), not by chance bigrams."""
    return MemoryStore(tmp_path / "memory.sqlite3", NearEmbedder())


def active(store: MemoryStore) -> list[str]:
    return sorted(m.content for m in store.list(OWNER, now=day(30)))


@pytest.mark.parametrize("changed_by", ["hand", "telling"])
def test_undoing_a_trim_keeps_what_the_memory_became_since(tmp_path, changed_by: str) -> None:
    """#4: 我搬到上海了 trims 用户常驻杭州，对花生过敏 to 用户对花生过敏, which then becomes 用户对花生和芒果过敏 (corrected on
    the memories page, or told in chat). Undoing the move must not write the old whole text back over it: `undo`
    promises a row changed since stays as it was left, and 芒果 would be lost."""
    store = memory_store(tmp_path)
    old, _action = store.add(OWNER, "用户常驻杭州，对花生过敏", now=day(0))
    moved = store.add(OWNER, "用户搬到上海了", now=day(1))
    assert active(store) == ["用户对花生过敏", "用户搬到上海了"]  # trimmed, not replaced
    if changed_by == "hand":
        store.update_text(old, "用户对花生和芒果过敏", now=day(2), user_id=OWNER)
    else:
        store.add(OWNER, "用户对花生和芒果过敏", now=day(2))
    store.undo([(moved[0], moved.telling)], user_id=OWNER, now=day(3))
    assert store.get(old).content == "用户对花生和芒果过敏"
    assert active(store) == ["用户对花生和芒果过敏"]


def test_undoing_the_earlier_of_two_trims_brings_back_no_clause_the_later_took(tmp_path) -> None:
    """#3: 用户常驻杭州，在研发部工作，对花生过敏 is trimmed by 我搬到上海了, then by 我调到销售部了. Undoing the move must not
    give back 在研发部工作, which the later telling took: 研发部 and 销售部 would both be active."""
    store = memory_store(tmp_path)
    store.add(OWNER, "用户常驻杭州，在研发部工作，对花生过敏", now=day(0))
    moved = store.add(OWNER, "用户搬到上海了", now=day(1))
    store.add(OWNER, "用户调到销售部了", now=day(2))

    def both_departments() -> bool:
        facts = active(store)
        return any("研发部" in f for f in facts) and any("销售部" in f for f in facts)

    assert not both_departments(), active(store)
    store.undo([(moved[0], moved.telling)], user_id=OWNER, now=day(3))
    assert not both_departments(), active(store)
    assert "用户调到销售部了" in active(store)
    assert any("花生" in f for f in active(store)), active(store)


def test_two_too_long_pastes_in_a_row_are_both_shown_back(tmp_path, monkeypatch) -> None:
    """Review 346 #5: one refusal was kept, so the second paste's overwrote the first's (its text to copy lost)."""
    a = sample_assistant(tmp_path)
    n = a.MAX_QUESTION_CHARS // 10 + 5
    first, second = "请问出差住宿标准的具体规定是什么，" * n, "请问婚假和产假的具体天数都是多少呢，" * n
    tab = open_chat(a, tmp_path, monkeypatch)
    tab.session_state[OUTBOX_KEY] = [{"question": q, "conversation": None, "typed_in": None}
                                     for q in (first, second, "年假有几天？")]  # three sends read by stopped runs
    tab.run()
    codes = [c.value for c in tab.code]
    assert any(first[:20] in c for c in codes) and any(second[:20] in c for c in codes), [c[:12] for c in codes]
    assert list(conversations(a).values()) == [["年假有几天？"]]


def test_a_failure_said_by_a_run_the_next_send_stops_is_said_after_it(tmp_path, monkeypatch) -> None:
    """Review 346 #4: the failure was drawn by the run the next send stopped at that very call, and said nowhere."""
    a = sample_assistant(tmp_path)
    real_ask, calls = a.ask, []

    def ask(question: str, **kwargs: Any):
        calls.append(question)
        if len(calls) == 1:
            raise RagError("模型服务暂时不可用")
        return real_ask(question, **kwargs)

    monkeypatch.setattr(a, "ask", ask)
    tab = open_chat(a, tmp_path, monkeypatch)
    box = tab.chat_input[0].id
    restore = stop_at(monkeypatch, "error", 1, lambda: next_send(box, "婚假有几天？"))
    tab.chat_input[0].set_value("出差住宿标准是多少？").run()
    restore()
    assert calls == ["出差住宿标准是多少？", "婚假有几天？"]
    assert any("回答失败" in e.value and "出差住宿标准" in e.value for e in tab.error), [e.value for e in tab.error]
