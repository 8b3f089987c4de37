"""The tab's icon never makes the browser go online (review 53 #2; AppTest, fake embedder).

Streamlit's frontend turns a ":material/…:" favicon into https://fonts.gstatic.com/…/24px.svg; an emoji it draws
itself (an SVG data URL). The favicon comes from st.set_page_config(page_icon=…) and, until that runs in a session,
from the current st.Page's icon (st.navigation). Icons inside the page (buttons, notices, the menu's page links) are
drawn from the Material Symbols font bundled with Streamlit and stay as they are."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import streamlit
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.string_util import is_emoji
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def favicons_of_a_run(tmp_path: Path, monkeypatch) -> list[Any]:
    """Every icon a run of app.py hands Streamlit that can become the tab's favicon."""
    import ui.state

    seen: list[Any] = []
    real_page, real_config = streamlit.Page, streamlit.set_page_config

    def page(*args: Any, **kwargs: Any):
        seen.append(kwargs.get("icon"))
        return real_page(*args, **kwargs)

    def config(*args: Any, **kwargs: Any):
        seen.append(kwargs.get("page_icon"))
        return real_config(*args, **kwargs)

    monkeypatch.setattr(streamlit, "Page", page)
    monkeypatch.setattr(streamlit, "set_page_config", config)
    point_the_app_at(tmp_path / "unused", monkeypatch)
    assistant = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return seen


def test_every_favicon_the_app_sets_is_drawn_by_the_browser_not_fetched(tmp_path: Path, monkeypatch) -> None:
    icons = favicons_of_a_run(tmp_path, monkeypatch)
    assert len(icons) >= 12  # every st.Page and the page config were seen
    fetched = [icon for icon in icons if icon is not None and not is_emoji(icon)]
    assert not fetched, f"favicons the browser would fetch: {fetched}"


def test_no_page_config_or_page_in_the_sources_names_a_material_favicon() -> None:
    """The files a page config or an st.Page could be added to (a page run directly calls render_chrome)."""
    pattern = re.compile(r"(page_icon\s*=|st\.Page\([^)]*icon\s*=)\s*[\"']:material", re.S)
    files = [ROOT / "app.py", *sorted((ROOT / "ui").glob("*.py")), *sorted((ROOT / "pages").glob("*.py"))]
    assert [f.name for f in files if pattern.search(f.read_text(encoding="utf-8"))] == []
