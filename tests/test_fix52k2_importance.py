"""Review 52k #6: an importance given as text is converted before anything is written, and audited."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal, RagError

ADMIN = Principal("wang", "admin")


def test_a_text_importance_is_stored_and_audited(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    mid, _ = a.remember("local", "我常驻杭州", importance=0.7)
    a.update_memory_importance(mid, "0.3")
    assert a.memory.get(mid).importance == pytest.approx(0.3)
    rows = [e for e in a.audit_entries(actor=ADMIN) if e.action == "memory.importance"]
    assert [(r.target, r.outcome, r.detail) for r in rows] == [(f"local 的记忆 {mid}", "ok", "0.30")]


@pytest.mark.parametrize("bad", ["很重要", None, "1.5"])
def test_a_bad_importance_changes_nothing(tmp_path, bad) -> None:
    a = fake_assistant(tmp_path / "s")
    mid, _ = a.remember("local", "我常驻杭州", importance=0.7)
    with pytest.raises(RagError, match="重要"):
        a.update_memory_importance(mid, bad)
    assert a.memory.get(mid).importance == pytest.approx(0.7)
    assert [h["action"] for h in a.memory.history("local", mid)] == ["added"]
