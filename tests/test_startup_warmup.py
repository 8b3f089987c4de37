"""The second model reads its weights on a background thread when the store opens, not in the first question."""

from __future__ import annotations

import threading

import pytest

from rag_core.search.embedding import load_second_embedder


@pytest.mark.integration
def test_the_second_model_is_loaded_before_the_first_question():
    embedder = load_second_embedder("use", "e5")
    loading = [t for t in threading.enumerate() if t.name == "second-model-load"]
    assert loading, "no background load started"
    for thread in loading:
        thread.join(timeout=120)
    assert embedder._model._backend is not None  # USE's weights and vocabulary are in memory
