"""The main model's first call is made on a background thread when it is loaded, not by the first question.

e5's engine pages its weights in on its first call (0.5-0.7 s on the loaded 2-core machine, 7 ms for the
next call); a fake stands in for it here, so this runs in the fast tier.
"""

from __future__ import annotations

import threading

from rag_core.search import embedding


class _FakeE5:
    model_id, dim = "e5", 3

    def __init__(self, threads=None):
        self.calls: list[str] = []

    def embed_query(self, text):
        self.calls.append(threading.current_thread().name)


def test_loading_e5_makes_its_first_call_on_a_background_thread(monkeypatch):
    monkeypatch.setattr(embedding, "E5Embedder", _FakeE5)
    model = embedding.load_embedder("e5")
    for thread in [t for t in threading.enumerate() if t.name == "main-model-load"]:
        thread.join()
    assert model.calls == ["main-model-load"]
