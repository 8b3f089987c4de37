"""A Chroma server (CHROMA_HOST) down when the app starts: the start completes and questions are answered by keywords.

Review 63 (rev-store s10): a host reboot where the app came up before `chroma run` left HR with no answers — the start
raised VectorServerDown and CLI `search` exited 1, while the same outage mid-session fell back to keyword search and
doctor promised as much. Fast tier: the server is a closed loopback port, and "the server is back" is the store's
client swapped for an embedded Chroma client (an empty one: the postponed rebuild check must then rebuild).
"""

from __future__ import annotations

import gc
import socket
from pathlib import Path

import pytest

from rag_core.errors import VectorServerDown
from rag_core.search.centroid import META_KEY as CENTROID_KEY
from rag_core.search.chroma_server import KEYWORDS_ONLY, client_settings
from rag_core.search.vector_store import LAYOUT, ChromaVectorStore
from rag_core.types import Principal
from tests.fakes import fake_assistant

ANNUAL = "# 年假制度\n\n员工入职满一年后每年享有带薪年假 5 天，满十年 10 天。年假须提前三天在系统中申请。\n"
EMPLOYEE = Principal("z", "employee")


def _closed_port() -> int:
    with socket.socket() as s:  # bound, never listened on, then closed: connections are refused
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _indexed(tmp_path: Path) -> Path:
    """A data dir with the annual-leave policy indexed (embedded Chroma), closed again."""
    data = tmp_path / "store"
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    first = fake_assistant(data)
    assert first.ingest_file(tmp_path / "nianjia.md").ok
    first.catalog.close()
    first.release_data_dir()
    del first
    gc.collect()
    return data


def _server_back(store: ChromaVectorStore, path: Path) -> None:
    """The server answers again, empty (a client on a new embedded directory stands in for it)."""
    import chromadb

    store._connect = lambda: chromadb.PersistentClient(path=str(path), settings=client_settings())
    store.client = None


def test_a_store_on_a_server_down_at_start_opens_later_instead_of_raising():
    store = ChromaVectorStore(host="127.0.0.1", port=_closed_port(), model_id="m", name="policy_chunks_x")
    assert store.stale and not store.opened and store.model_id is None and store.audiences == []
    with pytest.raises(VectorServerDown, match="连不上"):
        store.count()


def test_a_start_with_the_server_down_answers_by_keywords_and_says_why(tmp_path):
    data = _indexed(tmp_path)
    port = _closed_port()
    assistant = fake_assistant(data, chroma_host="127.0.0.1", chroma_port=port)  # raised VectorServerDown before

    assert any(f"127.0.0.1:{port} 连不上" in n and "只按关键词检索" in n for n in assistant.store_notices)
    result = assistant.search("年假几天", actor=EMPLOYEE)
    assert result.hits and result.hits[0].chunk.doc_id == "nianjia"
    assert result.warnings.count(KEYWORDS_ONLY) == 1
    server = [c for c in assistant.doctor() if "Chroma 服务器" in c.file]
    assert server and not server[0].ok and "只按关键词检索" in server[0].fix  # doctor says the same


def test_the_postponed_rebuild_runs_when_the_server_is_back_and_a_restore_marker_survives(tmp_path):
    data = _indexed(tmp_path)
    marker = ""  # a restore deletes the recorded layout: "rebuild the vectors at the next start" (`storage.backup`)
    restored = fake_assistant(data)
    restored.catalog.set_meta("vector_layout", marker)
    restored.catalog.close()
    restored.release_data_dir()
    del restored
    gc.collect()

    assistant = fake_assistant(data, chroma_host="127.0.0.1", chroma_port=_closed_port())
    assert not assistant.catalog.get_meta("vector_layout")  # the check did not run: the marker is kept
    assert KEYWORDS_ONLY in assistant.search("年假几天", actor=EMPLOYEE).warnings

    _server_back(assistant.vectors, tmp_path / "server-back")
    again = assistant.search("年假几天", actor=EMPLOYEE)  # no restart
    assert KEYWORDS_ONLY not in again.warnings and again.hits[0].scores.cosine_rank is not None
    assert assistant.vectors.count() == assistant.catalog.chunk_count() > 0  # rebuilt from the embedding cache
    assert assistant.catalog.get_meta("vector_layout") == LAYOUT
    assert assistant.catalog.get_meta(CENTROID_KEY) and assistant.centroid.count() == assistant.catalog.chunk_count()
    assert assistant.vectors.when_opened is None  # once


def test_a_background_to_recompute_waits_for_the_server_instead_of_stopping_the_start(tmp_path):
    data = _indexed(tmp_path)
    cleared = fake_assistant(data)
    cleared.catalog.set_meta(CENTROID_KEY, "")  # as a rebuild leaves it: recomputed from the vectors at the start
    cleared.catalog.close()
    cleared.release_data_dir()
    del cleared
    gc.collect()

    assistant = fake_assistant(data, chroma_host="127.0.0.1", chroma_port=_closed_port())
    assert not assistant.centroid.complete and assistant.centroid.count() == 0
    assert not assistant.catalog.get_meta(CENTROID_KEY)  # an empty background is never saved as the real one
    assert assistant.search("年假几天", actor=EMPLOYEE).hits

    _server_back(assistant.vectors, tmp_path / "server-back")
    assert assistant.search("年假几天", actor=EMPLOYEE).hits[0].scores.cosine_rank is not None
    assert assistant.centroid.complete and assistant.centroid.count() == assistant.catalog.chunk_count()
