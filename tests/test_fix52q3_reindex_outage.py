"""重新切块 while the Chroma server is down (review 52q3 #1): the outage is a Chinese failure in the report and the
audit, never an exception that replaces the settings page, and the page offers 重新切块 for as long as any live version
is still cut at another chunk size or overlap than the settings in force. Real SQLite/Chroma, the fake embedder; the
outage is the vector store's upsert or delete raising what a stopped server raises (httpx.ConnectError)."""

from __future__ import annotations

import httpx
from fakes import fake_assistant

from rag_core.errors import VectorServerDown
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
ANNUAL = "# 年假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天，满十年 10 天。\n\n第二条 年假须提前三天在系统中申请。\n"
SICK = "# 病假制度\n\n第一条 病假须提供医院诊断证明。\n\n第二条 病假期间按基本工资的百分之八十发放。\n"


def _store(tmp_path):
    a = fake_assistant(tmp_path / "store")
    for text, name in ((ANNUAL, "年假.md"), (SICK, "病假.md")):
        assert a.ingest_bytes(text.encode(), name, actor=ADMIN).ok
    return a


def _refused(*_args, **_kwargs):
    raise httpx.ConnectError("[Errno 111] Connection refused")


def test_a_reindex_during_an_outage_reports_every_version_in_chinese_and_audits_it(tmp_path, monkeypatch):
    a = _store(tmp_path)
    assert a.update_settings(chunk_size=200, chunk_overlap=20, actor=ADMIN)
    monkeypatch.setattr(a.indexer.vectors, "upsert", _refused)
    done = a.reindex(actor=ADMIN)
    assert done.documents == 0
    shown = "；".join(done.failed)
    assert "向量库服务器" in shown and "《年假制度》v1" in shown and "《病假制度》v1" in shown, shown
    assert "重新切块" in shown and "Connection" not in shown, shown
    row = a.audit_entries(actor=ADMIN)[0]
    assert (row.action, row.outcome) == ("document.reindex", "failed") and "向量库服务器" in row.detail, row


def test_a_server_lost_after_a_version_is_written_is_a_failure_not_a_crash(tmp_path, monkeypatch):
    """A scheduled version's old copy is retired after its re-cut copy is written: that delete meets the outage."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=ADMIN).ok
    assert a.ingest_bytes(ANNUAL.replace("5 天", "7 天").encode(), "年假.md", effective_date="2099-01-01", actor=ADMIN).ok
    a.update_settings(chunk_size=200, chunk_overlap=20, actor=ADMIN)

    def lost(*_args, **_kwargs):
        raise VectorServerDown("127.0.0.1:1")

    monkeypatch.setattr(a.indexer, "retire", lost)
    done = a.reindex(actor=ADMIN)
    assert done.failed and "向量库服务器 127.0.0.1:1 连不上" in done.failed[-1], done
    assert a.audit_entries(actor=ADMIN)[0].outcome == "failed"


def test_versions_cut_at_other_settings_are_listed_until_a_reindex_cuts_them(tmp_path, monkeypatch):
    a = _store(tmp_path)
    assert a.versions_to_recut(actor=ADMIN) == []
    a.update_settings(chunk_size=200, chunk_overlap=20, actor=ADMIN)
    monkeypatch.setattr(a.indexer.vectors, "upsert", _refused)
    a.reindex(actor=ADMIN)
    assert sorted(a.versions_to_recut(actor=ADMIN)) == ["《年假制度》v1", "《病假制度》v1"]
    monkeypatch.undo()
    assert a.reindex(actor=ADMIN).failed == []
    assert a.versions_to_recut(actor=ADMIN) == []
    a.update_settings(chunk_size=240, chunk_overlap=60, actor=ADMIN)  # back to the size v1 was cut at
    assert sorted(a.versions_to_recut(actor=ADMIN)) == ["《年假制度》v2", "《病假制度》v2"]


def test_the_settings_page_offers_a_retry_and_says_the_outage_in_chinese(tmp_path, monkeypatch):
    from test_settings_bounds import settings_page

    a = _store(tmp_path)
    a.update_settings(chunk_size=200, chunk_overlap=20, actor=ADMIN)  # saved; the re-cut never ran
    at = settings_page(a, tmp_path, monkeypatch)
    warned = " ".join(w.value for w in at.warning)
    assert "2 个版本" in warned and "《年假制度》v1" in warned, warned
    with monkeypatch.context() as outage:
        outage.setattr(a.indexer.vectors, "upsert", _refused)
        next(b for b in at.button if b.label == "重新切块").click().run()
        assert not at.exception, [e.value for e in at.exception]
        said = " ".join(e.value for e in at.error)
        assert "向量库服务器" in said and "Connection" not in said, said
        assert any(b.label == "重新切块" for b in at.button)  # still offered: nothing was cut
    next(b for b in at.button if b.label == "重新切块").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "已按当前设置重新切块 2 个版本" in " ".join(s.value for s in at.success)
    assert not any(b.label == "重新切块" for b in at.button)


def test_the_confirmed_chunk_change_during_an_outage_keeps_the_page(tmp_path, monkeypatch):
    """确认并重新索引 with the server down: the page says so in Chinese instead of a traceback."""
    from test_settings_bounds import settings_page

    a = _store(tmp_path)
    at = settings_page(a, tmp_path, monkeypatch)
    size = next(n for n in at.number_input if n.label == "每段字数")
    size.set_value(200)
    next(b for b in at.button if b.label == "应用").click().run()
    monkeypatch.setattr(a.indexer.vectors, "upsert", _refused)
    next(b for b in at.button if b.label == "确认并重新索引").click().run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(m.value for m in [*at.success, *at.error, *at.warning])
    assert "向量库服务器" in said and "Connection" not in said, said
    assert any(b.label == "重新切块" for b in at.button)
