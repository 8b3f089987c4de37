"""A real `chroma run` not yet up when the app starts (a host reboot): keywords meanwhile, vectors once it is up.

Review 63 (rev-store s10): the start raised VectorServerDown, so HR had no answers until someone restarted the app
after the server. Now the start completes with a notice, questions are answered by keywords, and the first search
after `chroma run` is up uses the vectors again without a restart, running the start's postponed rebuild check.
Each test starts its own `chroma run` on loopback (slow tier).
"""

from __future__ import annotations

import gc

import pytest

from rag_core.search.chroma_server import KEYWORDS_ONLY, VECTORS_LOST
from rag_core.search.vector_store import LAYOUT
from tests.fakes import fake_assistant
from tests.test_fix52q1_server_support import running_chroma, team

pytestmark = pytest.mark.slow


@pytest.fixture()
def chroma(tmp_path):
    yield from running_chroma(tmp_path)


def _closed(assistant) -> None:
    assistant.catalog.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()


def _restarted_while_down(tmp_path, chroma):
    first = team(tmp_path, chroma)
    _closed(first)
    chroma.stop()
    return fake_assistant(tmp_path / "store", chroma_host="127.0.0.1", chroma_port=chroma.port)


def test_a_start_before_the_server_answers_by_keywords_then_by_vectors_once_it_is_up(tmp_path, chroma):
    assistant = _restarted_while_down(tmp_path, chroma)  # raised VectorServerDown before
    assert any("只按关键词检索" in n for n in assistant.store_notices)
    down = assistant.search("年假几天")
    assert down.hits and down.hits[0].chunk.doc_id == "nianjia" and down.warnings.count(KEYWORDS_ONLY) == 1

    chroma.start()  # its own directory: the vectors are there
    up = assistant.search("年假几天")
    assert KEYWORDS_ONLY not in up.warnings and VECTORS_LOST not in up.warnings
    assert up.hits[0].scores.cosine_rank is not None
    assert assistant.catalog.get_meta("vector_layout") == LAYOUT
    assert assistant.centroid.count() == assistant.catalog.chunk_count()


def test_a_server_that_comes_up_empty_after_the_start_is_rebuilt_at_its_first_use(tmp_path, chroma):
    """The start's rebuild check, postponed: the server came up on an empty directory while the app was down."""
    assistant = _restarted_while_down(tmp_path, chroma)
    chroma.start(tmp_path / "empty-server")
    up = assistant.search("年假几天")
    assert not {KEYWORDS_ONLY, VECTORS_LOST} & set(up.warnings) and up.hits[0].scores.cosine_rank is not None
    assert assistant.vectors.count() == assistant.catalog.chunk_count() > 0
    assert assistant.centroid.count() == assistant.catalog.chunk_count()
