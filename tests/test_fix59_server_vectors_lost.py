"""A Chroma server (CHROMA_HOST) that came back EMPTY says so on every search until the vectors are rebuilt.

Review 59 (rev-maint t4): a server restarted on an empty directory (a disk replaced, a wrong --path, a fresh
container) had its collections quietly re-created empty at the reopen: the first question said keywords only, every
later one was answered by keywords only with no word of it, until the app restarted. A server that comes back with
its data must say nothing. Each test starts its own `chroma run` on loopback (slow tier).
"""

from __future__ import annotations

import gc

import pytest

from rag_core.search.chroma_server import KEYWORDS_ONLY, VECTORS_LOST, VectorsLost
from rag_core.search.indexer import reembed_all
from tests.fakes import fake_assistant
from tests.test_fix52q1_server_support import running_chroma, team

pytestmark = pytest.mark.slow

# a server that cannot be reached says KEYWORDS_ONLY; one that answers without this store's vectors VECTORS_LOST
NOTICES = {KEYWORDS_ONLY, VECTORS_LOST}


@pytest.fixture()
def chroma(tmp_path):
    yield from running_chroma(tmp_path)


def _notices(result) -> list[str]:
    return [w for w in result.warnings if w in NOTICES]


def test_a_server_back_empty_warns_on_every_search_until_the_vectors_are_rebuilt(tmp_path, chroma):
    assistant = team(tmp_path, chroma)
    assert not _notices(assistant.search("年假几天"))
    chroma.stop()
    chroma.start(tmp_path / "empty-server")  # the old collections are gone

    for _ in range(3):  # not only the first question: every one, until rebuilt
        result = assistant.search("年假几天")
        assert result.hits and result.hits[0].chunk.doc_id == "nianjia"  # keywords still answer
        assert _notices(result) == [VECTORS_LOST]  # the server runs: not the "cannot reach it" line
    assert assistant.vectors.lost
    with pytest.raises(VectorsLost, match="向量已丢失"):
        assistant.vectors.query(assistant.embedder.embed_query("年假几天"), 3)

    # an upload writes its vectors to the server as it is now, but the older documents' vectors are still missing
    (tmp_path / "hunjia.md").write_text("# 婚假制度\n\n员工婚假为十天，须在领证后一年内休完。\n", encoding="utf-8")
    assert assistant.ingest_file(tmp_path / "hunjia.md").ok
    assert _notices(assistant.search("婚假几天")) == [VECTORS_LOST]

    # the rebuild the start runs (from the embedding cache) ends the warning in this process
    reembed_all(assistant.catalog, assistant.vectors, assistant.embedder)
    assert not assistant.vectors.lost and assistant.vectors.count() == assistant.catalog.chunk_count()
    again = assistant.search("年假几天")
    assert not _notices(again) and again.hits[0].scores.cosine_rank is not None


def test_a_restart_rebuilds_what_the_empty_server_lost(tmp_path, chroma):
    """What the warning tells a person to do works: a restart finds too few vectors and rebuilds them."""
    assistant = team(tmp_path, chroma)
    chroma.stop()
    chroma.start(tmp_path / "empty-server")
    assert len(_notices(assistant.search("年假几天"))) == 1
    assistant.catalog.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()

    restarted = fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=chroma.port)
    assert restarted.vectors.count() == restarted.catalog.chunk_count() > 0
    result = restarted.search("年假几天")
    assert not _notices(result) and result.hits[0].scores.cosine_rank is not None


def test_a_server_back_with_its_data_says_nothing(tmp_path, chroma):
    """An outage alone is not a loss: the server restarted on its own directory is used again without a notice."""
    assistant = team(tmp_path, chroma)
    chroma.stop()
    assert len(_notices(assistant.search("年假几天"))) == 1  # down: keywords only, said
    chroma.start()
    for _ in range(2):
        result = assistant.search("年假几天")
        assert not _notices(result) and result.hits[0].scores.cosine_rank is not None
    assert not assistant.vectors.lost
