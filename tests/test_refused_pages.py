"""Every refusal audited (issue 32): a page the person may not open writes one audit row — who, which page, when.

AppTest in team mode on the fake-embedder facade (the pages' cached facade replaced by it).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from app_support import logged_in_with
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
HR_PAGES = {"pages/gaps.py": "知识缺口", "pages/usage.py": "使用情况", "pages/documents.py": "文档管理",
            "pages/settings.py": "设置", "pages/audit.py": "审计日志"}


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    assistant = fake_assistant(tmp_path_factory.mktemp("refused_pages") / "store")
    assistant.add_user("wang", "admin", PASSWORD)
    assistant.add_user("zhang", "employee", PASSWORD, actor=ADMIN)
    yield assistant


def logged_in(team: Any, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    return logged_in_with(team, APP, name, PASSWORD, tmp_path, monkeypatch)


def refusals(team: Any) -> list[Any]:
    return team.audit_entries(outcome="refused", actor=ADMIN)


@pytest.mark.parametrize("page", HR_PAGES)
def test_an_employee_opening_an_hr_page_url_adds_one_refused_audit_row(team, page, tmp_path, monkeypatch):
    at = logged_in(team, "zhang", tmp_path, monkeypatch)
    before = refusals(team)
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("没有权限查看此页面" in e.value for e in at.error)
    new = refusals(team)[: len(refusals(team)) - len(before)]
    assert len(new) == 1, new
    row = new[0]
    assert (row.actor, row.role, row.action, row.outcome) == ("zhang", "employee", "refused", "refused")
    assert HR_PAGES[page] in row.target
    assert abs(datetime.fromisoformat(row.at) - datetime.now(UTC)) < timedelta(minutes=5)


def test_a_page_the_person_may_open_writes_no_refusal(team, tmp_path, monkeypatch):
    at = logged_in(team, "zhang", tmp_path, monkeypatch)
    before = len(refusals(team))
    at.switch_page("pages/memories.py").run()
    assert not at.exception and not at.error
    admin = logged_in(team, "wang", tmp_path, monkeypatch)
    admin.switch_page("pages/usage.py").run()
    assert not admin.exception and len(refusals(team)) == before
