"""Tables that can be read (issue 32): long titles, notes, clause text and sources wrap, and a row opens in full.

Streamlit's grid wraps cell text only in rows taller than 64 px (ui/tables.py), so each table
with long text must be drawn with such a row height; the chunk preview and the upload report
also let HR open one row whole. AppTest, desktop mode, on the fake-embedder facade.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import IngestReport
from ui.tables import WRAP_ROWS

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
LONG_TITLE = "星河科技有限公司考勤与休假管理制度（二〇二六年修订版，适用于全体正式员工和试用期员工）"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Any:
    assistant = fake_assistant(tmp_path_factory.mktemp("tables") / "store")
    body = "第一条 " + "员工每年享有带薪年休假，具体天数按累计工作年限确定，" * 12 + "由人力资源部统一核定。\n"
    assistant.ingest_bytes(f"# {LONG_TITLE}\n\n{body}".encode(), "long_title.md")
    return assistant


def open_page(assistant: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_with(at: AppTest, column: str):
    return next(df for df in at.dataframe if column in df.value.columns)


def test_the_document_list_wraps_long_titles(library, tmp_path, monkeypatch) -> None:
    at = open_page(library, tmp_path, monkeypatch, "pages/documents.py")
    listed = table_with(at, "标题")
    assert LONG_TITLE in set(listed.value["标题"])
    assert listed.proto.row_height > 64


def test_a_chunk_opens_in_full_and_the_preview_wraps(library, tmp_path, monkeypatch) -> None:
    at = open_page(library, tmp_path, monkeypatch, "pages/documents.py")
    preview = table_with(at, "文本")
    assert preview.proto.row_height > 64
    longest = max(preview.value["文本"], key=len)
    assert len(longest) > 200
    picker = next(s for s in at.selectbox if s.label == "查看某一块的全文")
    picker.set_value(int(preview.value["文本"].tolist().index(longest))).run()
    assert longest in [t.value for t in at.text]


def test_the_upload_reports_notes_open_in_full(library, tmp_path, monkeypatch) -> None:
    note = "内容与当前版本完全相同，未生成新版本；" + "表格第 3 行缺少表头，已按上一行的表头读取；" * 4
    report = IngestReport(filename="long_title.md", status="unchanged", doc_id="long_title", version=1,
                          chunk_count=2, warnings=[note])
    at = open_page(library, tmp_path, monkeypatch, "pages/documents.py")
    at.session_state["doc_ingest_reports"] = [report]
    at.run()
    shown = table_with(at, "说明")
    assert shown.proto.row_height > 64
    next(s for s in at.selectbox if s.label == "查看某个文件的完整说明").set_value(0).run()
    assert note in [t.value for t in at.text]


def test_the_score_table_wraps_sources_and_sections(library, tmp_path, monkeypatch) -> None:
    at = open_page(library, tmp_path, monkeypatch, "pages/retrieval_test.py")
    next(t for t in at.text_input if t.label == "问题").set_value("带薪年休假天数怎么核定")
    next(b for b in at.button if b.label == "检索").click().run()
    assert not at.exception, [e.value for e in at.exception]
    at.session_state["tech_rt"] = True  # open 技术细节 (built only while open)
    at.run()
    scores = table_with(at, "来源")
    assert scores.proto.row_height == WRAP_ROWS > 64


def test_an_upload_warning_is_said_outside_the_table(library, tmp_path, monkeypatch) -> None:
    """UX walkthrough of stop 58: the narrowing warning sat in a cut-off table cell."""
    warning = "注意：这一版的可见范围（HR）比它取代的v1（全体员工）窄，现在起其余受众将查不到这份制度"
    report = IngestReport(filename="健身房管理办法.md", status="indexed", doc_id="健身房管理办法", version=2,
                          chunk_count=2, audience=("hr",), warnings=[warning])
    at = open_page(library, tmp_path, monkeypatch, "pages/documents.py")
    at.session_state["doc_ingest_reports"] = [report]
    at.run()
    assert any(warning in w.value for w in at.warning)
