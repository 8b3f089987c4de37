"""A Chroma error that does not go away on the standard answers' collection (a read-only database) is said once in
Chinese and bounded (review 54d): the rebuild used to re-enter the retrying write, which rebuilt again, until a
RecursionError, embedding every wording some 200 times per question and per add."""

from __future__ import annotations

import re
from pathlib import Path

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings as ChromaSettings
from fakes import BigramEmbedder, fake_assistant

from rag_core.errors import RagError
from rag_core.insights.standard import StandardAnswers
from rag_core.insights.standard_search import UNREADABLE
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
BUS = "# 班车管理办法\n\n## 第三条 通勤\n\n公司不提供班车，通勤补贴每月三百元。\n".encode()
READONLY = "attempt to write a readonly database"
ENTRIES = [("公司有班车吗？", "有，每天早8点从地铁站发车。"), ("食堂几点开饭？", "中午十一点半。"),
           ("工牌丢了怎么办？", "找行政补办。")]


class ReadOnlyCollection:
    """A real collection whose writes always fail, as on a read-only data dir."""

    def __init__(self, real) -> None:
        self._real = real

    def __getattr__(self, name: str):
        return getattr(self._real, name)

    def upsert(self, **_: object):
        raise RuntimeError(READONLY)

    def delete(self, **_: object):
        raise RuntimeError(READONLY)


class ReadOnlyClient:
    """A real Chroma client whose collections are `ReadOnlyCollection`s."""

    def __init__(self, real) -> None:
        self._real = real

    def __getattr__(self, name: str):
        return getattr(self._real, name)

    def get_or_create_collection(self, *args: object, **kwargs: object):
        return ReadOnlyCollection(self._real.get_or_create_collection(*args, **kwargs))


class Counted:
    """The embedder, counting the wordings it embeds."""

    def __init__(self, embed) -> None:
        self.embed, self.texts = embed, 0

    def __call__(self, texts):
        self.texts += len(texts)
        return self.embed(texts)


def _chinese(error: BaseException) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", str(error))) and READONLY not in str(error)


def _made_read_only(store: StandardAnswers) -> Counted:
    """`store` after a one-time Chroma error (collection dropped, rebuilt at next use) on a read-only client."""
    store._client = ReadOnlyClient(store._client)
    store._collection, store._stale = None, True
    store._embed = counted = Counted(store._embed)
    return counted


@pytest.fixture()
def store(tmp_path: Path) -> StandardAnswers:
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    embedder = BigramEmbedder()
    answers = StandardAnswers(tmp_path / "sa.sqlite3", client, "sa_test", embedder.model_id,
                              lambda texts: np.vstack([embedder.vector(t) for t in texts]))
    for question, answer in ENTRIES:
        answers.add(question, answer, author="hr", created_at="2026-03-01")
    return answers


def test_adding_on_a_read_only_collection_is_one_chinese_error_with_few_embeddings(store) -> None:
    counted = _made_read_only(store)
    with pytest.raises(RagError) as refused:  # a RecursionError before the fix
        store.add("年会在哪里开？", "在总部。", author="hr", created_at="2026-03-02")
    assert _chinese(refused.value), refused.value
    assert counted.texts <= 3 * len(ENTRIES) + 2
    assert [e.question for e in store.list()].count("年会在哪里开？") == 0  # nothing kept half-added


def test_deleting_on_a_read_only_collection_is_one_chinese_error(store) -> None:
    counted = _made_read_only(store)
    kept = store.list()[0]
    with pytest.raises(RagError) as refused:
        store.delete(kept.id)
    assert _chinese(refused.value), refused.value
    assert counted.texts <= 3 * len(ENTRIES)
    assert kept.id in {e.id for e in store.list()}


def test_matching_on_a_read_only_collection_is_the_unreadable_line_with_few_embeddings(store) -> None:
    counted = _made_read_only(store)
    for _ in range(2):  # each question tries the rebuild at most once
        with pytest.raises(RagError, match=re.escape(UNREADABLE)):
            store.count()
    assert counted.texts <= 2 * 3 * len(ENTRIES)


def test_an_empty_table_on_a_read_only_collection_refuses_an_add_in_chinese(tmp_path: Path) -> None:
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    embedder = BigramEmbedder()
    answers = StandardAnswers(tmp_path / "sa.sqlite3", ReadOnlyClient(client), "sa_test", embedder.model_id,
                              lambda texts: np.vstack([embedder.vector(t) for t in texts]))
    with pytest.raises(RagError) as refused:  # the rebuild of nothing succeeds; the retried write fails again
        answers.add("年会在哪里开？", "在总部。", author="hr", created_at="2026-03-02")
    assert _chinese(refused.value), refused.value


def test_the_store_opens_on_a_read_only_collection_that_needs_a_rebuild(store, tmp_path: Path) -> None:
    real = store._client
    real.delete_collection("sa_test")  # vectors lost: opening rebuilds, and every write fails
    embedder = BigramEmbedder()
    again = StandardAnswers(tmp_path / "sa.sqlite3", ReadOnlyClient(real), "sa_test", embedder.model_id,
                            lambda texts: np.vstack([embedder.vector(t) for t in texts]))
    assert len(again.list()) == len(ENTRIES)


def test_a_question_is_answered_from_the_policies_and_an_add_refused_in_chinese(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BUS, "bus.md", actor=ADMIN).ok
    for question, answer in ENTRIES:
        a.add_standard_answer(question, answer, actor=ADMIN)
    counted = _made_read_only(a.standard_store)

    asked = a.ask("公司有班车吗？", user="", remember=False, actor=ADMIN)  # a RecursionError before the fix
    assert asked.answerer != "标准答复" and asked.answer
    assert UNREADABLE in asked.search.warnings
    with pytest.raises(RagError) as refused:
        a.add_standard_answer("年会在哪里开？", "在总部。", actor=ADMIN)
    assert _chinese(refused.value), refused.value
    assert counted.texts <= 3 * 3 * len(ENTRIES)
