"""What the AppTest page tests share: pointing the app at a test store and reaching its facade."""

from __future__ import annotations

from pathlib import Path

import pytest


def point_the_app_at(path: Path, patch: pytest.MonkeyPatch) -> None:
    """The app reads its data dir from the environment; the offline answerer is forced."""
    patch.setenv("RAG_DATA_DIR", str(path))
    patch.setenv("LLM_API_KEY", "")
    patch.setenv("LLM_MODEL_ID", "")


def facade():
    """The very instance the pages use (st.cache_resource is per process, keyed by the settings)."""
    from ui.state import app_settings, open_assistant

    return open_assistant(app_settings())
