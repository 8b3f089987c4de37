"""Review 317 of this stop's store fixes, with a real `chroma run` on loopback.

- A delete whose vector clean-up fails after the catalog's delete committed (the server restarting right then) still
  writes its audit row and holds the standard answers citing the document, and says what was left; it raised, so the
  document was gone with no audit row and its standard answer still served.
- A server down at start and back empty, first reached by an upload (its version pending): the postponed rebuild
  check is armed again and runs at the next call, so the other documents' vectors are rebuilt; it was used up.
- With the server known down, an upload refuses before it embeds anything.
"""

from __future__ import annotations

import gc

import pytest

from rag_core.types import Principal
from tests.fakes import fake_assistant
from tests.test_fix52q1_server_support import ANNUAL, ChromaServer

pytestmark = pytest.mark.slow

ADMIN, HR, EMP = Principal("boss", "admin"), Principal("hr_li", "hr"), Principal("emp_wang", "employee")
LEAVE = "# 星河科技有限公司考勤与休假管理制度\n\n## 第五条 年假\n\n员工工作满一年享有五天带薪年假。\n".encode()
OTHER = "# 报销制度\n\n差旅报销须在出差结束后十个工作日内提交，附发票原件。\n".encode()


@pytest.fixture()
def server(tmp_path):
    chroma = ChromaServer(tmp_path / "srv")
    chroma.start()
    yield chroma
    chroma.stop()


def _restarted_with_the_server_down(tmp_path, server):
    """A store holding the annual-leave policy, opened again while its server is down."""
    a = fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=server.port)
    assert a.ingest_bytes(ANNUAL.encode(), "nianjia.md", actor=ADMIN).ok
    a.catalog.close()
    a.release_data_dir()
    del a
    gc.collect()
    server.stop()
    return fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=server.port)


def test_a_delete_whose_clean_up_failed_is_audited_and_holds_its_standard_answers(tmp_path, server):
    a = fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=server.port)
    assert a.ingest_bytes(LEAVE, "leave.md", actor=ADMIN).ok
    [doc] = [d.doc_id for d in a.list_documents(actor=ADMIN)]
    a.add_standard_answer("年假有几天？", "五天。", clauses=["《考勤与休假管理制度》第五条"], actor=HR)
    real = a.catalog.delete_document

    def server_restarts(*args, **kwargs):
        out = real(*args, **kwargs)
        server.stop()  # right after the catalog's transaction
        return out

    a.catalog.delete_document = server_restarts
    assert a.delete_document(doc, actor=HR) == 1
    a.catalog.delete_document = real
    server.start()
    rows = [(e.action, e.outcome, e.detail) for e in a.audit_log.entries() if e.action == "document.delete"]
    assert rows and rows[0][1] == "ok" and "待复核" in rows[0][2] and "清理没有完成" in rows[0][2]
    assert a.standard_answer_holds(actor=HR)
    assert a.ask("年假有几天？", user="", remember=False, actor=EMP).answerer != "标准答复"
    assert any("清理没有完成" in notice for notice in a.store_notices)
    # Review 333: every visitor reads the store notices, before logging in too; only the audit names the document
    assert not any(doc in notice for notice in a.store_notices)
    assert [e.target for e in a.audit_log.entries() if e.action == "document.delete"] == [doc]


def test_a_server_back_empty_first_reached_by_an_upload_is_rebuilt_at_the_next_call(tmp_path, server):
    b = _restarted_with_the_server_down(tmp_path, server)
    server.start(tmp_path / "empty-srv")  # back, on an empty directory
    assert b.ingest_bytes(OTHER, "baoxiao.md", actor=ADMIN).ok
    b.search("年假几天")
    assert b.vectors.count() == b.catalog.chunk_count() == 2  # the first document's vectors rebuilt too
    assert b.vectors.when_opened is None


def test_an_upload_with_the_server_known_down_refuses_before_embedding(tmp_path, server):
    b = _restarted_with_the_server_down(tmp_path, server)
    batches: list[int] = []
    embed = b.embedder.embed_passages
    b.embedder.embed_passages = lambda texts, **kw: (batches.append(len(texts)), embed(texts, **kw))[1]
    report = b.ingest_bytes(OTHER, "baoxiao.md", actor=ADMIN)
    assert not report.ok and "连不上" in report.error and batches == []
    assert not b.catalog.pending()


def test_postponed_work_failing_at_the_reopen_never_fails_the_search(tmp_path, server):
    """Review 320: the reopen ran the postponed rebuild check unguarded, so a busy catalog failed the first search."""
    import sqlite3

    b = _restarted_with_the_server_down(tmp_path, server)
    server.start()

    def busy():
        raise sqlite3.OperationalError("database is locked")

    b._rebuild_if_stale = busy
    for _ in range(3):
        assert b.search("年假几天").hits
    assert b.vectors.when_opened is not None  # kept for a later call
