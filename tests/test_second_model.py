"""The second bundled model (USE) as two ranking features: pool z-scores, and rows kept in step with chunks."""

from __future__ import annotations

import pytest
from conftest import SAMPLES, open_assistant

from rag_core.search.answerability import Signals, chunk_features, pool_z


def test_pool_z_ranks_within_the_pool_and_reads_a_missing_value_as_neutral():
    z = pool_z([0.30, 0.50, None, 0.40])
    assert z[2] == 0.0
    assert z[1] > z[3] > z[0]
    assert abs(z[0] + z[1] + z[3]) < 1e-6  # centred on the candidates that have a value
    assert pool_z([0.9, None]) == [0.0, 0.0]  # one value says nothing about order
    assert pool_z([]) == []


def test_chunk_features_carry_the_second_models_preference():
    signals = [Signals(cosine=0.8, second_cosine=0.2, second_sentence_cosine=0.6),
               Signals(cosine=0.8, second_cosine=0.4, second_sentence_cosine=None)]
    rows = chunk_features(signals)
    assert rows[1]["second_z"] > 0 > rows[0]["second_z"]
    # a chunk without sentences is its own best sentence: 0.4 against 0.6
    assert rows[0]["second_sentence_z"] > 0 > rows[1]["second_sentence_z"]
    off = chunk_features([Signals(cosine=0.8), Signals(cosine=0.7)])
    assert all(r["second_z"] == 0.0 and r["second_sentence_z"] == 0.0 for r in off)


@pytest.mark.integration
def test_second_model_rows_follow_the_chunks(tmp_path):
    """Written at ingest, read by search, removed with the document; an older store is backfilled on open."""
    assistant = open_assistant(tmp_path / "store")
    assert assistant.second is not None and assistant.second.embedder.model_id == "use"
    # on its own BLAS threads USE busy-waits beside e5: 10k search p50 43 -> 91 ms (bench/second_model_cost.py)
    assert assistant.second.embedder.inner._model.threads == 1
    report = assistant.ingest_file(SAMPLES / "03_travel_expense.md")
    assert report.ok, report.error
    ids = {c.chunk_id for c in assistant.catalog.all_chunks()}
    assert assistant.second.index.ids() == ids
    _, candidates, *_ = assistant.retriever.candidates("打车费能报吗？", assistant.settings)
    assert candidates and all(c.signals.second_cosine is not None for c in candidates)
    assistant.second.index.delete(list(ids)[:3])  # rows lost (an older store, a damaged file set aside)
    assistant.catalog.close()
    reopened = open_assistant(tmp_path / "store")
    assert reopened.second.index.ids() == ids
    reopened.delete_document(report.doc_id)
    assert reopened.second.index.ids() == set()
    reopened.catalog.close()


@pytest.mark.integration
def test_the_second_model_can_be_switched_off(tmp_path):
    assistant = open_assistant(tmp_path / "store", second_embedding_model="")
    assert assistant.second is None
    assert assistant.ingest_file(SAMPLES / "03_travel_expense.md").ok
    _, candidates, *_ = assistant.retriever.candidates("打车费能报吗？", assistant.settings)
    assert candidates and all(c.signals.second_cosine is None for c in candidates)
    assert not (tmp_path / "store" / "second_sentences.sqlite3").exists()
    assistant.catalog.close()


def test_load_embedder_passes_the_thread_count():
    """USE loads its weights lazily, so this reads the setting without them."""
    from rag_core.search.embedding import load_embedder

    assert load_embedder("use", threads=1)._model.threads == 1
    assert load_embedder("use", threads=2)._model.threads == 2
