"""After a new version is uploaded, the report and the 分块预览 say which version each chunk is and when it applies."""

from __future__ import annotations

import datetime

from test_upload_fixes_support import facade, page, policy, submit  # noqa: F401 (fixture)


def test_report_shows_the_uploaded_versions_chunks_and_when_it_applies(facade):  # noqa: F811
    facade.ingest_bytes(policy(8, "旧"), "年假.md")
    at = submit(page(), [("年假.md", policy(8, "新"))], date=datetime.date(2030, 1, 1))
    assert not at.exception, [e.value for e in at.exception]
    report = at.dataframe[0].value
    assert "v2 将于 2030-01-01 生效" in report["说明"][0]
    reading = next(e for e in at.expander if "是怎样读取的" in e.label)
    shown = [t.value for t in reading.text]
    assert shown and all("新" in s for s in shown)


def test_chunk_preview_labels_each_chunks_version_and_date(facade):  # noqa: F811
    facade.ingest_bytes(policy(3, "旧"), "年假.md")
    facade.ingest_bytes(policy(3, "新"), "年假.md", effective_date="2099-01-01")
    at = page()
    frame = next(d.value for d in at.dataframe if "文本" in d.value.columns)
    assert {"版本", "生效日期"} <= set(frame.columns)
    rows = {(row["版本"], row["生效日期"], "新" in row["文本"]) for _, row in frame.iterrows()}
    assert rows == {("v1", "—", False), ("v2", "2099-01-01", True)}
