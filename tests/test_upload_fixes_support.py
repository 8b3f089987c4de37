"""Driving the real 上传 form in AppTest (shared by the tests/test_upload_fixes_*.py files; no tests here).

AppTest cannot drive st.file_uploader, so the page's uploader is replaced by a stub that returns the files
a test chose; everything else (the form, the estimate, the facade on real Chroma/SQLite) is real.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")
CHOSEN: list[Upload] = []


class Upload:
    """What st.file_uploader returns for one file: its name and bytes."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self._data = name, data

    def getvalue(self) -> bytes:
        return self._data


def policy(n: int = 3, tag: str = "") -> bytes:
    return "".join(
        f"第{i}条 {tag}员工年假第 {i} 项规定，每年按工龄计算天数，须提前三天申请。\n\n" for i in range(1, n + 1)
    ).encode()


@pytest.fixture()
def facade(tmp_path, monkeypatch):
    """The facade the page uses (fake embedder, real stores), with the uploader stubbed."""
    import ui.state

    assistant = fake_assistant(tmp_path / "store", ingest_seconds_per_chunk=0.62, ingest_confirm_seconds=10)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "store"))
    monkeypatch.setattr(streamlit, "file_uploader", lambda *a, **k: list(CHOSEN) or None)
    CHOSEN.clear()
    return assistant


def page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def submit(at: AppTest, files, audience=None, date=None, doc_id=None) -> AppTest:
    """Choose `files` ((name, bytes) pairs), set the form's fields, click 开始导入."""
    CHOSEN[:] = [Upload(n, d) for n, d in files]
    if audience is not None:
        next(m for m in at.multiselect if m.label == "可见范围").set_value(audience)
    if date is not None:
        next(d for d in at.date_input if d.label.startswith("生效日期")).set_value(date)
    if doc_id is not None:
        next(t for t in at.text_input if t.label.startswith("文档ID")).set_value(doc_id)
    next(b for b in at.button if b.label == "开始导入").click().run()
    CHOSEN.clear()
    return at


def text_of(at: AppTest) -> str:
    kinds = ("markdown", "info", "warning", "error", "success", "caption")
    return "\n".join(str(el.value) for kind in kinds for el in getattr(at, kind)).replace("\\", "")
