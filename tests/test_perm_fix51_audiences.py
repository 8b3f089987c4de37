"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from perm_support import BOSS, team_store

from rag_core import Assistant
from rag_core.types import AskTrace, SearchResult


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    return team_store(tmp_path)


# -- 5. the audiences a conversation showed are read only inside the engine ---------------------------------
def test_no_public_method_returns_the_audiences_of_anyones_conversation(a) -> None:
    from rag_core.facade.conversations import context_audiences

    a.ask("企鹅计划裁撤多少岗位", actor=BOSS, conversation="b1")
    probe = AskTrace(question="", answer="", search=SearchResult(query="", hits=[]), memories=[], prompt="",
                     sources=[], prompt_tokens=0, token_budget=0, dropped_hits=0, answerer="", conversation="b1", turn=9)
    assert not hasattr(a, "context_audiences")
    assert ("董事会",) in context_audiences(a, probe)  # what the insights log still records
