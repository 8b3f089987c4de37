"""A document deleted and uploaded again never reuses its version numbers, and search shows a chunk row only to its
audience.

The new upload came back as v1, so its chunk ids (doc@v1#k) were the ones an employee's search had allowed from its
snapshot taken before the delete; the rows were read by id after the switch, and the employee got the managers-only
text. Fake embedder, real Chroma, SQLite and jieba.
"""

from __future__ import annotations

from fakes import BigramEmbedder, fake_assistant

from rag_core import Principal

ADMIN = Principal("boss", "admin")
EMP = Principal("emp_wang", "employee")
SECRET = "部门经理绩效奖金为年薪的百分之四十"
OLD = "# 绩效奖金办法\n\n## 第一条 绩效奖金\n\n绩效奖金按季度发放，具体比例另行通知。\n".encode()
NEW = f"# 绩效奖金办法\n\n## 第一条 绩效奖金\n\n{SECRET}，按季度发放。\n".encode()
NAME = "绩效奖金办法.md"


class Hooked(BigramEmbedder):
    """Runs `hook` once while a question is embedded: another request in the middle of a search."""

    hook = None

    def embed_query(self, text):
        if self.hook:
            hook, self.hook = self.hook, None
            hook()
        return super().embed_query(text)


def redo_for_managers(a):
    def redo():
        a.delete_document("绩效奖金办法", actor=ADMIN)
        report = a.ingest_bytes(NEW, NAME, audience=("managers",), actor=ADMIN)
        assert report.ok, report.error
    return redo


def test_a_search_in_flight_never_gets_the_re_uploaded_managers_text(tmp_path):
    emb = Hooked()
    a = fake_assistant(tmp_path / "s", embedder=emb)
    assert a.ingest_bytes(OLD, NAME, audience=("all",), actor=ADMIN).ok
    emb.hook = redo_for_managers(a)
    result = a.search("绩效奖金怎么发放？", actor=EMP)
    assert emb.hook is None  # the delete and re-upload ran in the middle of the search
    assert SECRET not in repr(result)
    assert all("managers" not in h.chunk.audience for h in result.hits)


def test_version_numbers_go_on_after_a_delete(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(OLD, NAME, actor=ADMIN).version == 1
    assert a.ingest_bytes(NEW, NAME, actor=ADMIN).version == 2
    a.delete_document("绩效奖金办法", actor=ADMIN)
    again = a.ingest_bytes(OLD, NAME, actor=ADMIN)
    assert again.ok and again.version == 3
    a.release_data_dir()
    b = fake_assistant(tmp_path / "s")  # the number survives a restart
    b.delete_document("绩效奖金办法", actor=ADMIN)
    assert b.ingest_bytes(NEW, NAME, actor=ADMIN).version == 4


def test_a_store_without_the_row_numbers_on_from_its_rows(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(OLD, NAME, actor=ADMIN).ok
    assert a.ingest_bytes(NEW, NAME, actor=ADMIN).version == 2
    a.catalog._db.execute("DELETE FROM meta WHERE key LIKE 'versions_used:%'")  # a store from before the row
    a.catalog._db.commit()
    assert a.ingest_bytes(OLD, NAME, actor=ADMIN).version == 3  # numbered from its rows, as before
    a.delete_document("绩效奖金办法", actor=ADMIN)
    assert a.ingest_bytes(NEW, NAME, actor=ADMIN).version == 4


def test_a_reused_id_is_still_shown_only_to_its_audience(tmp_path, monkeypatch):
    """Even when a chunk id names another row than the snapshot allowed, its audience decides."""
    emb = Hooked()
    a = fake_assistant(tmp_path / "s", embedder=emb)
    assert a.ingest_bytes(OLD, NAME, audience=("all",), actor=ADMIN).ok
    monkeypatch.setattr(type(a.catalog), "next_version", lambda self, doc_id: 1)  # numbering as it once was
    emb.hook = redo_for_managers(a)
    result = a.search("绩效奖金怎么发放？", actor=EMP)
    assert emb.hook is None
    assert SECRET not in repr(result)
