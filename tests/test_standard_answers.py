"""Standard answers: the match rule (words must agree, not only the cosine), the store, hits, rebuild."""

from __future__ import annotations

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings as ChromaSettings
from fakes import BigramEmbedder, fake_assistant_with_samples

from rag_core.errors import RagError
from rag_core.insights.matching import agreement, is_match, wording
from rag_core.insights.standard import StandardAnswers
from rag_core.types import Principal

HR = Principal("hr_li", "hr")


def test_a_paraphrase_agrees_and_a_question_about_another_benefit_does_not():
    assert agreement(wording("事假需要提前多久申请？"), wording("请事假要提前几天申请？")) >= 0.5
    # 婚假 is not 年假: a scope word of one side missing from the other vetoes the match
    assert agreement(wording("婚假一共有几天？"), wording("年假一共有几天？")) == 0.0
    assert agreement(wording("出差打车能报销吗？"), wording("加班打车能报销吗？")) == 0.0


def test_both_floors_are_needed():
    assert is_match(0.97, 0.6)
    assert not is_match(0.97, 0.2)  # close in meaning, different words: 续订合同的试用期 vs 试用期多久
    assert not is_match(0.90, 1.0)


@pytest.fixture()
def store(tmp_path):
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    embedder = BigramEmbedder()
    return StandardAnswers(tmp_path / "sa.sqlite3", client, "sa_test", embedder.model_id,
                           lambda texts: np.vstack([embedder.vector(t) for t in texts])), embedder, client


def everyone(_audience) -> bool:
    return True


def test_add_match_count_and_delete(store):
    answers, embedder, _ = store
    entry = answers.add("公司有班车吗？", "有，早晚高峰各一班。", author="hr_li", created_at="2026-03-01T00:00:00+00:00",
                        clauses=["行政通知"], variants=["有没有班车"])
    assert answers._collection.count() == 2
    answers.cosine_floor = 0.8  # the bigram vectors are not e5's; the rule is what is tested here
    match = answers.match("公司有班车吗", embedder.vector("公司有班车吗"), everyone)
    assert match is not None and match.entry.id == entry.id and match.entry.clauses == ["行政通知"]
    assert answers.match("年假有几天？", embedder.vector("年假有几天？"), everyone) is None
    assert answers.match("公司有班车吗", embedder.vector("公司有班车吗"), lambda audience: False) is None
    answers.count_hit(entry.id, "2026-03-02T00:00:00+00:00")
    assert answers.list()[0].hits == 1
    answers.delete(entry.id)
    assert answers.list() == [] and answers._collection.count() == 0
    with pytest.raises(RagError, match="没有编号"):
        answers.delete(entry.id)


def test_empty_question_or_answer_is_refused_and_nothing_stored(store):
    answers, _, _ = store
    for question, answer in (("", "有"), ("班车？", "  ")):
        with pytest.raises(RagError, match="不能为空"):
            answers.add(question, answer, author="x", created_at="2026-03-01")
    assert answers.list() == [] and answers._collection.count() == 0


def test_the_collection_is_rebuilt_when_the_model_changes_or_vectors_are_lost(store, tmp_path):
    answers, embedder, client = store
    answers.add("公司有班车吗？", "有。", author="x", created_at="2026-03-01")
    client.delete_collection("sa_test")  # vectors lost
    again = StandardAnswers(tmp_path / "sa.sqlite3", client, "sa_test", embedder.model_id,
                            lambda texts: np.vstack([embedder.vector(t) for t in texts]))
    assert again._collection.count() == 1
    other = StandardAnswers(tmp_path / "sa.sqlite3", client, "sa_test", "another-model",
                            lambda texts: np.ones((len(texts), 8), dtype=np.float32))
    assert (other._collection.metadata or {})["embedding_model"] == "another-model"
    assert other._collection.count() == 1


def test_rating_the_same_answer_again_updates_it_instead_of_adding(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    trace = a.ask("年假有几天？", actor=Principal("emp", "employee"))
    a.record_feedback(trace, -1, actor=Principal("emp", "employee"))
    a.record_feedback(trace, -1, actor=Principal("emp", "employee"), reason="答非所问")
    entries = a.feedback_reviews(actor=HR)
    assert [(e.rating, e.reason) for e in entries] == [(-1, "答非所问")]
