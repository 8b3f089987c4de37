"""The settings page shows a clear that the engine refuses as an error in Chinese, not a traceback (rev51d).

A clear that cannot move or delete settings.json (no write permission on the data dir) raises SettingsError; the
page called forget_saved_settings without catching it. AppTest on the fake-embedder facade (desktop mode: the local
administrator); the refusal is simulated on the file's unlink.
"""

from __future__ import annotations

from pathlib import Path

from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core.settings import SAVED_FILE

APP = str(Path(__file__).resolve().parent.parent / "app.py")
CLEAR = "清除本页保存的修改，改回 .env 和默认值"


def test_a_refused_clear_is_shown_as_an_error_and_changes_nothing(tmp_path, monkeypatch):
    from app_support import point_the_app_at

    import ui.state

    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text('{"top_k": 7}', encoding="utf-8")
    assistant = fake_assistant(store)
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    unlink = Path.unlink

    def refusing(self: Path, missing_ok: bool = False) -> None:
        if self.name == SAVED_FILE:
            raise PermissionError(13, "Permission denied", str(self))
        return unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refusing)
    next(b for b in at.button if b.label == CLEAR).click().run()
    next(b for b in at.button if b.label == "确认清除").click().run()  # asked first (review 335)
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error)
    assert "没有清除" in shown and "写权限" in shown and "Errno" not in shown, shown
    assert assistant.saved_settings == {"top_k": 7} and (store / SAVED_FILE).exists()

