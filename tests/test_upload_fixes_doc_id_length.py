"""An explicit doc id is bounded like a file name (120 characters), in the engine and in the page's field."""

from __future__ import annotations

from fakes import fake_assistant
from test_upload_fixes_support import facade, page, policy  # noqa: F401 (fixture)


def test_a_doc_id_longer_than_120_characters_is_refused(tmp_path):
    a = fake_assistant(tmp_path / "s")
    long_id = "年" * 100_000
    estimate = a.estimate_ingest(policy(), "年假.md", doc_id=long_id)
    report = a.ingest_bytes(policy(), "年假.md", doc_id=long_id)
    assert not estimate.ok and not report.ok
    assert "文档ID 太长" in report.error and "最多 120 个字符" in report.error and len(report.error) < 300
    assert a.list_documents() == []
    assert a.ingest_bytes(policy(), "年假.md", doc_id="年" * 120).ok


def test_the_page_field_is_bounded(facade):  # noqa: F811
    field = next(t for t in page().text_input if t.label.startswith("文档ID"))
    assert field.max_chars == 120
