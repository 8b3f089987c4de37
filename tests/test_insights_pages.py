"""The HR team's pages in team mode, driven by AppTest on the real engine and e5.

Accounts: an administrator, an HR person and an employee. The employee never sees
the insight pages (menu or URL); HR sees gaps without user names, the administrator
with them; a 👎 with its reason given in chat reaches the review list; a standard
answer added on its page is served in chat with its badge.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_support import facade, log_in, point_the_app_at
from conftest import copy_store
from streamlit.testing.v1 import AppTest

from rag_core import Principal

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
RUN_TIMEOUT = 600
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
EMPLOYEE = Principal("zhang", "employee")
INSIGHT_PAGES = ["pages/gaps.py", "pages/feedback_review.py", "pages/standard_answers.py", "pages/usage.py"]
INSIGHT_TITLES = ["知识缺口", "反馈审阅", "标准答复", "使用情况"]
BUS = ["公司有班车吗？", "上下班有没有通勤班车可以坐？", "有没有接送员工上下班的班车？"]

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def data_dir(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = copy_store(sample_store, tmp_path_factory.mktemp("insights_store") / "store")
    with pytest.MonkeyPatch.context() as patch:
        point_the_app_at(path, patch)
        a = facade()
        a.add_user("wang", "admin", PASSWORD)
        a.add_user("li", "hr", PASSWORD, actor=ADMIN)
        a.add_user("zhang", "employee", PASSWORD, actor=ADMIN)
        for question in BUS:
            a.ask(question, actor=EMPLOYEE)
        yield path


@pytest.fixture(autouse=True)
def app_environment(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_the_app_at(data_dir, monkeypatch)


def page_text(at: AppTest) -> str:
    parts: list[str] = []
    for kind in ("title", "subheader", "markdown", "caption", "text", "info", "warning", "error", "success"):
        parts.extend(str(el.value) for el in getattr(at, kind))
    parts.extend(el.label for el in at.expander)
    parts.extend(str(frame.value.to_string()) for frame in at.dataframe)
    return "\n".join(parts)


def logged_in(name: str) -> AppTest:
    return log_in(APP, name, PASSWORD, RUN_TIMEOUT)


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def menu(at: AppTest) -> list[str]:
    return [link.label for link in at.sidebar.get("page_link")]


def test_an_employee_never_sees_the_insight_pages() -> None:
    at = logged_in("zhang")
    assert not set(INSIGHT_TITLES) & set(menu(at))
    for page in INSIGHT_PAGES:
        text = page_text(open_page(at, page))
        assert "没有权限查看此页面" in text, page
        assert not any(q in text for q in BUS)


def test_hr_sees_the_gap_group_without_names_and_the_administrator_with_them() -> None:
    at = logged_in("li")
    assert set(INSIGHT_TITLES) <= set(menu(at))
    text = page_text(open_page(at, "pages/gaps.py"))
    assert any(label.startswith("3 次 · ") for label in (e.label for e in at.expander)), text
    assert all(q in text for q in BUS)
    assert "zhang" not in text
    admin = open_page(logged_in("wang"), "pages/gaps.py")
    assert "zhang" in page_text(admin)


def test_a_gap_becomes_a_standard_answer_in_one_step_and_chat_serves_it_with_its_badge() -> None:
    at = open_page(logged_in("li"), "pages/gaps.py")
    at.text_area[0].set_value("公司在早晚高峰提供免费班车，线路见行政部通知。")
    next(b for b in at.button if b.label == "设为标准答复").click().run()
    assert not at.exception and "已添加标准答复" in page_text(at)
    listed = page_text(open_page(at, "pages/standard_answers.py"))
    assert "命中 0 次" in listed
    chat = logged_in("zhang")
    chat.chat_input[0].set_value("公司有没有班车？").run()
    assert not chat.exception, [e.value for e in chat.exception]
    text = page_text(chat)
    assert "公司在早晚高峰提供免费班车" in text and "标准答复" in text and "li" in text
    chat.chat_input[0].set_value("年假有几天？").run()
    assert page_text(chat).count("**标准答复**") == 1
    assert "命中 1 次" in page_text(open_page(logged_in("li"), "pages/standard_answers.py"))


def test_a_dislike_with_a_reason_given_in_chat_appears_in_the_review_list() -> None:
    chat = logged_in("zhang")
    chat.chat_input[0].set_value("出差住宿标准是多少？").run()
    chat.feedback[-1].set_value(0).run()
    reason = next(s for s in chat.selectbox if s.label == "👎 原因（可选）")
    reason.set_value("引用不对").run()
    assert not chat.exception, [e.value for e in chat.exception]
    at = open_page(logged_in("li"), "pages/feedback_review.py")
    labels = [e.label for e in at.expander]
    assert any("👎 · 引用不对 · 出差住宿标准是多少？" in label and "未读" in label for label in labels), labels
    assert "zhang" not in page_text(at)
    next(b for b in at.button if b.label == "标为已读").click().run()
    assert not at.exception
    assert any(label.startswith("已读 · 👎 · 引用不对") for label in (e.label for e in at.expander))


def test_usage_page_charts_and_exports() -> None:
    at = open_page(logged_in("li"), "pages/usage.py")
    text = page_text(at)
    assert "各文档被引用次数" in text and "每日提问数" in text
    assert at.get("download_button")


def test_weak_evidence_answers_are_listed_as_gaps_only_when_asked_for() -> None:
    trace = facade().ask("试用期可以延长吗？", actor=EMPLOYEE)  # e5 finds the probation terms, none on extending
    assert trace.weak_evidence and trace.answer.startswith("依据较弱")
    at = open_page(logged_in("li"), "pages/gaps.py")
    assert "试用期可以延长吗" not in page_text(at)
    next(c for c in at.checkbox if c.label == "也列出依据较弱的回答").check().run()
    assert not at.exception, [e.value for e in at.exception]
    text = page_text(at)
    assert "试用期可以延长吗" in text and "依据较弱 1" in text
    usage = open_page(at, "pages/usage.py")
    assert "已回答（依据较弱）" in [m.label for m in usage.metric]
