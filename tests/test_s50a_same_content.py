"""The same file uploaded under another name is stored, with a warning naming the copy the uploader may read."""

from __future__ import annotations

from pathlib import Path

from fakes import fake_assistant

from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
BUS = "# 班车管理办法\n\n## 第三条 班车\n\n公司每天早上八点发车，晚上六点返程。\n".encode()


def test_the_same_bytes_under_another_name_are_stored_with_a_warning_naming_the_first(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    first = a.ingest_bytes(BUS, "班车管理办法.md", actor=HR)
    assert first.ok and not any("同样的内容" in w for w in first.warnings)
    second = a.ingest_bytes(BUS, "班车.md", actor=HR)
    assert second.status == "indexed" and second.doc_id != first.doc_id  # the upload is not lost
    [warning] = [w for w in second.warnings if "同样的内容" in w]
    assert "《班车管理办法.md》" in warning and "删除" in warning
    assert len(a.list_documents(actor=HR)) == 2


def test_a_copy_the_uploader_may_not_read_is_never_named(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BUS, "经理班车.md", audience=["manager"], actor=ADMIN).ok
    report = a.ingest_bytes(BUS, "班车.md", actor=HR)
    assert report.status == "indexed"
    assert not any("同样的内容" in w or "经理班车" in w for w in report.warnings)
    assert [w for w in a.ingest_bytes(BUS, "班车2.md", actor=ADMIN).warnings if "《经理班车.md》" in w and "《班车.md》" in w]
