"""What search derives from every visible document is built once per catalog snapshot, not per question.

At 100k chunks (7k documents) the set of visible versions that `absent_subjects` checks a question's
topics against took 1.5 ms of every search, and the short-document warnings another pass over every
document (docs/benchmarks.md, stop 38). Both are kept with the snapshot (`Visible`), which
`VisibilityCache` keeps until the catalog changes.
"""

from __future__ import annotations

from dataclasses import replace

from rag_core.search.visibility import visible_versions
from rag_core.types import DocumentInfo
from tests.fakes import fake_assistant

LEAVE = "# 休假制度\n\n## 年假\n\n员工每年享有带薪年假五天，须提前三天申请。\n\n## 病假\n\n病假须提供医院证明。\n"
BUS = "# 通勤制度\n\n## 班车\n\n公司提供上下班班车，线路见行政部通知。\n"


class CountedTuple(tuple):
    """A tuple that counts how often it is iterated."""

    iterations = 0

    def __iter__(self):
        type(self).iterations += 1
        return super().__iter__()


def test_searches_on_one_snapshot_do_not_walk_every_visible_document(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    for text, name in ((LEAVE, "leave.md"), (BUS, "bus.md")):
        report = assistant.ingest_bytes(text.encode("utf-8"), name)
        assert report.ok, report.error
    searched = []  # the snapshots the searches get from the retriever's VisibilityCache
    snapshot = assistant.retriever.visibility.get

    def get(today, reader):
        searched.append(snapshot(today, reader))
        return searched[-1]

    assistant.retriever.visibility.get = get
    questions = ("年假有几天？", "公司有班车吗？", "公司有健身房吗？")
    before = [assistant.search(q) for q in questions]  # the snapshot's derived sets are built here
    (visible,) = {id(v): v for v in searched}.values()  # one snapshot for every search
    assert len(visible.active) == 2
    object.__setattr__(visible, "active", CountedTuple(visible.active))
    CountedTuple.iterations = 0
    after = [assistant.search(q) for q in questions]
    assert all(v is visible for v in searched)  # the same snapshot was searched
    assert CountedTuple.iterations == 0
    for old, new in zip(before, after, strict=True):
        assert new.warnings == old.warnings and new.foreign_subjects == old.foreign_subjects
        assert [(h.chunk.chunk_id, vars(h.scores)) for h in new.hits] == [(h.chunk.chunk_id, vars(h.scores)) for h in old.hits]
    # the short documents are still named (both are shorter than top_k), a topic no policy has still found
    assert any("只有" in w for w in after[0].warnings)
    assert "健身房" in after[2].foreign_subjects


def _info(doc_id: str, version: int, chunks: int) -> DocumentInfo:
    return DocumentInfo(doc_id=doc_id, title=doc_id, source=f"{doc_id}.md", version=version, audience=("all",),
                        chunk_count=chunks, ingested_at="2026-01-01T00:00:00", content_hash=f"h{doc_id}{version}",
                        effective_date=None, status="current")


def test_the_derived_sets_are_those_of_the_active_versions():
    from datetime import date

    live = [_info("a", 1, 3), _info("a", 2, 9), _info("b", 1, 1), _info("c", 4, 0), _info("d", 1, 5)]
    visible = visible_versions(live, [], date(2026, 6, 1), "all")
    assert visible.versions() == {("a", 2), ("b", 1), ("c", 4), ("d", 1)}
    assert visible.versions() is visible.versions()
    assert [d.doc_id for d in visible.short_documents(5)] == ["b", "d"]  # 1 to 5 chunks, in the active order
    assert [d.doc_id for d in visible.short_documents(1)] == ["b"]
    # what was derived is no part of the snapshot's identity
    assert visible == replace(visible, _derived={}) and visible.short_documents(5) == (visible.active[1], visible.active[3])
