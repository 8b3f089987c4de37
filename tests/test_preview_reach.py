"""The facade refuses a preview label beyond the actor's reach with the unknown label's words.

`Assistant.search` and `ask` check `role=` against what the actor (or, for ask, the person whose turn it is)
may read: an employee probing with a made-up label was told every audience label of the live documents,
董事会-裁员项目组 included. Fake embedder, real Chroma, SQLite and jieba.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.errors import RagError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
EMPLOYEE = Principal("emp_wang", "employee")
SECRET = "董事会-裁员项目组"


@pytest.fixture()
def assistant(tmp_path):
    seeded = fake_assistant(tmp_path / "store")
    assert seeded.ingest_bytes("# 裁员方案\n\n第一条 第一批裁员名单于三月公布。\n".encode(), "裁员方案.md",
                               audience=[SECRET], actor=ADMIN).ok
    return seeded


@pytest.mark.parametrize("action", ["search", "ask"])
def test_an_employee_is_not_told_a_label_beyond_their_reach(assistant, action):
    for label in ("x", SECRET):
        with pytest.raises(RagError) as refused:
            getattr(assistant, action)("裁员名单什么时候公布", role=label, actor=EMPLOYEE)
        assert SECRET not in str(refused.value).replace(f"“{label}”", "")
    assert "hr（HR）" in str(refused.value)  # the engine's own labels are no secret


def test_an_administrator_still_previews_every_label(assistant):
    assert assistant.search("裁员名单什么时候公布", role=SECRET, actor=ADMIN).hit_count == 1
    with pytest.raises(RagError, match=SECRET):
        assistant.search("裁员名单什么时候公布", role="x", actor=ADMIN)
