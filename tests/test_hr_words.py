"""HR's words (issue 32): labels in Chinese, no engineer names or paths outside 技术细节, local times, 本机用户.

AppTest on the fake-embedder facade: team mode (an administrator) for 设置 and 审计日志, desktop mode for 记忆管理.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from app_support import point_the_app_at, submit_login
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")


def outside_details(at: AppTest) -> str:
    """Every label and text on the page except what sits inside an expander named 技术细节…."""
    details = {id(node) for exp in at.expander if exp.label.startswith("技术细节") for node in _walk(exp)}
    parts: list[str] = []
    for node in _walk(at._tree):
        if id(node) in details:
            continue
        for attr in ("label", "value", "body"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                parts.append(value)
        if type(node).__name__ == "Dataframe":
            parts.append(node.value.to_string())
    return "\n".join(parts)


def _walk(node: Any):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def open_app(assistant: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str | None = None) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    if name:
        submit_login(at, name, PASSWORD)
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Any:
    assistant = fake_assistant(tmp_path_factory.mktemp("hr_words") / "store")
    assistant.add_user("wang", "admin", PASSWORD)
    return assistant


def test_settings_speak_hr_words_and_keep_engineer_names_under_details(team, tmp_path, monkeypatch):
    at = open_app(team, tmp_path, monkeypatch, "wang")
    at.switch_page("pages/settings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(n.label == "每次检索返回条数" for n in at.number_input)
    shown = outside_details(at)
    for word in ("top_k", "token", "docs/", "bench/", ".py", "LLM_API_KEY", "recall@", "Chroma", str(team.settings.data_dir)):
        assert word not in shown, word
    details = "\n".join(df.value.to_string() for exp in at.expander if exp.label == "技术细节" for df in exp.dataframe)
    # still there for whoever needs them, by the variables .env sets (top_k was no name the app reads: review 357)
    assert "RAG_TOP_K" in details and "LLM_API_KEY" in details


def test_the_audit_page_shows_local_times_and_role_names(team, tmp_path, monkeypatch):
    at = open_app(team, tmp_path, monkeypatch, "wang")
    at.switch_page("pages/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = next(df.value for df in at.dataframe if "操作人" in df.value.columns)
    assert "时间" in frame.columns and not any("UTC" in c for c in frame.columns)
    assert set(frame["角色"]) <= {"管理员", "HR", "员工", "—"} and "管理员" in set(frame["角色"])
    login = next(e for e in team.audit_entries(actor=ADMIN) if e.action == "login")
    from ui.timefmt import local_time

    assert local_time(login.at, fmt="%Y-%m-%d %H:%M:%S") in set(frame["时间"])
    assert not any(re.search(r"T\d\d:|\+00:00", t) for t in frame["时间"])


def test_the_desktop_user_is_called_by_a_name_people_use(tmp_path, monkeypatch):
    desktop = fake_assistant(tmp_path / "desktop")
    desktop.remember("local", "我常驻杭州办公室")
    at = open_app(desktop, tmp_path, monkeypatch)
    at.switch_page("pages/memories.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = "\n".join([*(s.value for s in at.subheader), *(c.value for c in at.caption)])
    assert "本机用户" in text and "local" not in text
