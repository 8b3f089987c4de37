"""What the AppTest page tests share: pointing the app at a test store and reaching its facade."""

from __future__ import annotations

from pathlib import Path

import pytest


def point_the_app_at(path: Path, patch: pytest.MonkeyPatch) -> None:
    """The app reads its data dir from the environment; the offline answerer is forced."""
    patch.setenv("RAG_DATA_DIR", str(path))
    patch.setenv("LLM_API_KEY", "")
    patch.setenv("LLM_MODEL_ID", "")


def log_in(app: str, name: str, password: str, timeout: float = 120):
    """An AppTest of `app` logged in through the login form as `name` (team mode)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(app, default_timeout=timeout)
    at.run()
    at.run()
    return submit_login(at, name, password)


def submit_login(at, name: str, password: str):
    """Fill the login form of a running AppTest and submit it (the page may still refuse the password)."""
    by_label = {t.label: t for t in at.text_input}
    by_label["用户名"].set_value(name)
    by_label["密码"].set_value(password)
    next(b for b in at.button if b.label == "登录").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def logged_in_with(assistant, app: str, name: str, password: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Team mode on `assistant` (instead of the cached facade), logged in through the form as `name`."""
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    return log_in(app, name, password)


def facade():
    """The very instance the pages use (st.cache_resource is per process, keyed by the settings)."""
    from ui.state import app_settings, index_samples, open_assistant

    assistant = open_assistant(app_settings())
    index_samples(assistant)  # what the first page run does (outside a page: no bar is drawn)
    return assistant


def open_chat(assistant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, conversation: str | None = None):
    """A browser tab on the chat page over `assistant` (desktop mode: the local administrator), on `conversation`
    if given, after its first run."""
    from streamlit.testing.v1 import AppTest

    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=120)
    if conversation:
        at.query_params["c"] = conversation
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def serve_desktop(assistant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app (desktop mode: the local administrator, no login) over `assistant` instead of the cached facade."""
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)


def open_desktop_page(path: str):
    """A new browser tab of the app served by `serve_desktop`, on the page `path` (pages/….py) after its first run."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=120)
    at.run()
    at.switch_page(path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at
