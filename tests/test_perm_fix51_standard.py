"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from perm_support import ADMIN, HR, refused, team_store

from rag_core import Assistant
from rag_core.insights.standard import StandardAnswerError


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    return team_store(tmp_path)


# -- 6. another audience's standard answer ------------------------------------------------------------------
@pytest.mark.parametrize("action", ["delete_standard_answer", "release_standard_answer"])
def test_refusing_another_audiences_standard_answer_is_audited(a, action) -> None:
    entry = a.add_standard_answer("企鹅计划怎么补偿", "N+3", audience=("董事会",), actor=ADMIN)
    before = len(refused(a))
    with pytest.raises(StandardAnswerError, match="没有编号"):
        getattr(a, action)(entry.id, actor=HR)
    rows = refused(a)
    assert len(rows) == before + 1 and rows[0].detail == "受众不可见" and entry.id in rows[0].target
    assert [e.id for e in a.standard_answers(actor=ADMIN)] == [entry.id]
