"""The second model in a process of its own: the same vectors as in this process, begun before the main model's
embedding, and a child that fails replaced by the model in this process without a failed search."""

from __future__ import annotations

import gc
import logging
import signal
import threading

import numpy as np
import pytest
from fakes import BigramEmbedder

from rag_core.search import embedder_process
from rag_core.search.embedder_process import EmbedderProcess
from rag_core.search.embedding import CachedEmbedder, USEEmbedder

TEXTS = ["年假有几天？", "加班餐费怎么报销", "出差住宿标准"]


@pytest.fixture(scope="module")
def in_process():
    return USEEmbedder(threads=1)


@pytest.mark.slow
def test_the_child_gives_the_vectors_of_the_model_in_this_process(in_process):
    child = EmbedderProcess("use", "use", 512, threads=1)
    try:
        assert np.array_equal(child.embed_queries(TEXTS), in_process.embed_queries(TEXTS))
        assert np.array_equal(child.embed_passages(TEXTS), in_process.embed_passages(TEXTS))
        assert child.embed_passages([]).shape == (0, 512)
        # a batch as ingest sends it (32 × 512 floats = 64 KB, more than a pipe holds) comes back whole
        batch = [f"第{i}条 出差住宿标准按城市分级，一线城市每晚不超过{500 + i}元。" for i in range(40)]
        assert np.allclose(child.embed_passages(batch), in_process.embed_passages(batch), atol=1e-5)
        assert child._channel.child is not None, "the child was given up"
    finally:
        child.close()
    assert child._channel.child is None


@pytest.mark.slow
def test_replies_nobody_reads_never_block_the_child(in_process):
    """Search may drop a question's readings unread (no candidates); their replies must not fill the child's
    output until a large request and the child wait on each other for ever."""
    child = EmbedderProcess("use", "use", 512, threads=1)
    try:
        for i in range(40):
            child.start_queries([f"没人读的问题{i}", f"没人读的问题{i}，换个说法"])
        batch = ["加班餐费按实际发生额报销，每次不超过三十元。" * 20 + str(i) for i in range(32)]
        done: list[np.ndarray] = []
        worker = threading.Thread(target=lambda: done.append(child.embed_passages(batch)), daemon=True)
        worker.start()
        worker.join(120)  # a deadlock would never end: the bound only keeps the suite from hanging
        assert done and np.allclose(done[0], in_process.embed_passages(batch), atol=1e-5)
        assert child._channel.child is not None and not child._channel.waiting
    finally:
        child.close()


@pytest.mark.slow
def test_a_child_that_dies_is_replaced_by_the_model_in_this_process(in_process, caplog):
    child = EmbedderProcess("use", "use", 512, threads=1)
    child.embed_query("热身")
    process = child._channel.child
    process.send_signal(signal.SIGINT)  # Ctrl-C in the app's terminal reaches the child too: it is ignored
    assert np.array_equal(child.embed_queries(TEXTS), in_process.embed_queries(TEXTS))
    assert child._channel.child is process
    process.kill()
    process.wait()
    with caplog.at_level(logging.WARNING):
        pending = child.start_queries(TEXTS)
        assert np.array_equal(pending.result(), in_process.embed_queries(TEXTS))
    assert child._channel.child is None and "in the app's process instead" in caplog.text
    assert np.array_equal(child.embed_passages(TEXTS[:2]), in_process.embed_passages(TEXTS[:2]))


@pytest.mark.slow
def test_a_child_that_hangs_is_replaced_and_one_that_is_dropped_stops(in_process, monkeypatch):
    monkeypatch.setattr(embedder_process, "REPLY_S", 0.5)
    monkeypatch.setattr(embedder_process, "PER_TEXT_S", 0.0)
    child = EmbedderProcess("use", "use", 512, threads=1)
    child.embed_query("热身")
    process = child._channel.child
    process.send_signal(signal.SIGSTOP)
    assert np.array_equal(child.embed_queries(TEXTS), in_process.embed_queries(TEXTS))
    assert child._channel.child is None and process.poll() is not None  # killed and reaped, no zombie
    with pytest.raises(UnicodeEncodeError):  # a text no model can read is the caller's error, computed here too
        child.embed_query("年假\ud800")
    other = EmbedderProcess("use", "use", 512, threads=1)
    running = other._channel.child
    del other
    gc.collect()
    assert running.wait(timeout=10) is not None  # nothing uses it: its child ends


class _Recording:
    """A second model that records when its question embedding is begun and read."""

    model_id, dim = "rec", 8

    def __init__(self, events: list[str]):
        self.events = events

    def start_queries(self, texts):
        self.events.append("second begun")
        events = self.events

        class Pending:
            def result(self):
                events.append("second read")
                return np.ones((len(texts), 8), dtype=np.float32) / np.sqrt(8)

        return Pending()


def test_the_cache_begins_the_second_embedding_before_returning_and_keeps_it(tmp_path):
    events: list[str] = []
    cache = CachedEmbedder(_Recording(events), tmp_path / "cache.sqlite3")
    finish = cache.start_queries(["年假", "年休假"])
    assert events == ["second begun"]
    events.append("main model")
    vectors = finish()
    assert events == ["second begun", "main model", "second read"] and len(vectors) == 2
    again = cache.start_queries(["年假"])  # kept: nothing begun
    assert events[-1] == "second read" and np.array_equal(again()[0], vectors[0])
    plain = CachedEmbedder(BigramEmbedder(), tmp_path / "plain.sqlite3")  # no process: computed at once
    assert np.array_equal(plain.start_queries(["年假"])()[0], plain.embed_query("年假"))


class _Main(BigramEmbedder):
    def __init__(self, events: list[str]):
        super().__init__()
        self.events = events

    def embed_query(self, text):
        self.events.append("main model")
        return super().embed_query(text)


class _Second(BigramEmbedder):
    """A second model whose question embedding is begun by one call and read by another, as the process's is."""

    model_id = "fake-second"

    def __init__(self, events: list[str]):
        super().__init__()
        self.events = events

    def start_queries(self, texts):
        self.events.append("second begun")
        vectors = np.vstack([self.vector(t) for t in texts])
        events = self.events

        class Pending:
            def result(self):
                events.append("second read")
                return vectors

        return Pending()


def test_search_begins_the_second_models_embedding_before_the_main_models(tmp_path):
    """The overlap itself: the question goes to the second model's process before e5 starts on it, and is read
    after (a search that embedded it only when its cosines are due would overlap nothing)."""
    from fakes import FAKE_ANSWER_THRESHOLD

    from rag_core import Settings
    from rag_core.assistant import Assistant

    events: list[str] = []
    settings = Settings(data_dir=tmp_path / "store", answer_threshold=FAKE_ANSWER_THRESHOLD)
    assistant = Assistant(settings, embedder=_Main(events), second_embedder=_Second(events))
    assistant.ensure_samples()
    events.clear()
    _, candidates, *_ = assistant.retriever.candidates("加班餐费怎么报销？", assistant.settings)
    assert events == ["second begun", "main model", "second read"]
    assert candidates and any(c.signals.second_cosine is not None for c in candidates)
