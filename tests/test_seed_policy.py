"""Seed 000 §3.3: its 差旅报销制度 and seven questions, through the real engine."""

from __future__ import annotations

import pytest
from conftest import open_assistant
from seed_doc import SEED_QUESTIONS, seed_travel_policy

from rag_core.answer.prompt import NOT_IN_POLICY

pytestmark = pytest.mark.integration

DOC = seed_travel_policy()


@pytest.fixture(scope="module")
def seed_assistant(tmp_path_factory):
    if DOC is None:
        pytest.fail("../shared/seeds/000_*.txt not found: the seed policy is the fixture of this test")
    a = open_assistant(tmp_path_factory.mktemp("seed"))
    assert a.ingest_bytes(DOC.encode("utf-8"), "差旅报销制度.txt").ok
    return a


@pytest.mark.parametrize("question,article", [q for q in SEED_QUESTIONS if q[1] and q[1].startswith("第")])
def test_answerable_questions_find_their_clause_in_top_two(seed_assistant, question, article):
    hits = seed_assistant.search(question).hits
    assert any(h.chunk.section.startswith(article) for h in hits[:2]), [h.chunk.section for h in hits]


@pytest.mark.parametrize("question", [q for q, where in SEED_QUESTIONS if where is None])
def test_absent_questions_get_zero_hits(seed_assistant, question):
    assert seed_assistant.search(question).hit_count == 0


def test_ask_annual_leave_says_not_in_policy(seed_assistant):
    assert seed_assistant.ask("年假有几天?", user="").answer == NOT_IN_POLICY
