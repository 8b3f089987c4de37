"""No file paths or shell commands on pages; the JSON export names the desktop user 本机用户 and shows local times (issue 32)."""

from __future__ import annotations

import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant, fake_assistant_with_samples
from streamlit.testing.v1 import AppTest

from ui.timefmt import export_for_people, localized

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
COMMAND = re.compile(r"python|rag_core|--\w|\.py\b|\.sh\b|/[a-z_]+/")


def test_the_desktop_sidebar_names_no_command(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = [str(getattr(el, "value", "")) for kind in ("markdown", "caption", "info", "success") for el in getattr(at.sidebar, kind)]
    assert any("管理员账户" in s for s in said), said  # the hint is still there, in words
    assert not [s for s in said if COMMAND.search(s)], said


def test_the_json_export_says_benji_yonghu_and_local_time() -> None:
    stored = {"user": "local", "conversations": [
        {"id": "c1", "user": "local", "created_at": "2026-12-01T23:30:00+00:00",
         "turns": [{"question": "年假有几天？写于 2026-12-01T23:30:00+00:00", "at": "2026-12-01T23:30:05+00:00"}]},
    ]}
    shown = export_for_people(stored)
    conversation = shown["conversations"][0]
    assert shown["user"] == conversation["user"] == "本机用户"
    assert conversation["created_at"] == "2026-12-02T07:30:00+08:00"  # Asia/Shanghai, the default zone
    assert conversation["turns"][0]["at"] == "2026-12-02T07:30:05+08:00"
    assert conversation["turns"][0]["question"].endswith("2026-12-01T23:30:00+00:00")  # what a person wrote stays
    assert stored["user"] == "local"  # the engine's record is not touched
    assert localized({"t": "2026-06-01T00:00:00Z"}, tz=ZoneInfo("Europe/Berlin")) == {"t": "2026-06-01T02:00:00+02:00"}


def test_a_real_export_carries_no_utc_time(tmp_path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("年假有几天", user="local", conversation="c1")
    text = str(export_for_people(assistant.export_history("local")))
    assert "+00:00" not in text and "'local'" not in text and "本机用户" in text
