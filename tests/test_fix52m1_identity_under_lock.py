"""Two different files whose names map onto one doc id, both waiting for the writer: the second is refused as
an id clash, as it is when they come one after the other (review rev52m defect 3). The identity check ran before
the wait, so both were indexed and the second silently retired the first."""

from __future__ import annotations

import threading

from fakes import fake_assistant

from rag_core.search.indexer import WAITING
from rag_core.types import Principal

HR = Principal("li", "hr")
LEAVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TRAVEL = "# 差旅制度\n\n第一条 出差住宿标准每晚五百元。\n".encode()


def both_waiting(a, files, **options):
    """Ingest each file in its own thread while the writer lock is held; release it once every one waits for it."""
    out: dict[str, object] = {}
    waiting = {name: threading.Event() for name, _ in files}

    def run(name: str, data: bytes) -> None:
        def progress(stage: str, frac: float) -> None:
            if stage == WAITING:
                waiting[name].set()
        out[name] = a.ingest_bytes(data, name, progress=progress, actor=HR, **options)

    threads = [threading.Thread(target=run, args=file) for file in files]
    with a.indexer.lock:  # another long upload is being written meanwhile
        for thread in threads:
            thread.start()
        for event in waiting.values():
            event.wait()
    for thread in threads:
        thread.join()
    return out


def test_the_second_of_two_clashing_names_is_refused_after_waiting_for_the_writer(tmp_path):
    a = fake_assistant(tmp_path / "store")
    out = both_waiting(a, [("制度 v2.md", LEAVE), ("制度(v2).txt", TRAVEL)])
    reports = sorted(out.values(), key=lambda r: r.ok)
    assert [r.ok for r in reports] == [False, True], reports
    assert reports[0].conflict_doc_id == "制度_v2" and "改名" in reports[0].error, reports[0]
    assert [(v.version, v.status) for v in a.catalog.versions("制度_v2")] == [(1, "current")]


def test_an_explicit_doc_id_still_makes_the_second_a_new_version(tmp_path):
    a = fake_assistant(tmp_path / "store")
    out = both_waiting(a, [("制度 v2.md", LEAVE), ("制度(v2).txt", TRAVEL)], doc_id="制度_v2")
    assert all(r.ok for r in out.values()), out
    assert sorted(r.version for r in out.values()) == [1, 2]
