"""Three small refusals from the stop 50 reviews' leftovers: each was silent or English before.

- `backup ""` (or a blank destination on a page) backed up into the working directory (Path("") is ".").
- `list_documents(role="HR")` listed nothing, silently, as a preview of an audience nobody has.
- A session file with a broken JSON line was refused with the parser's English ("Expecting value").
Fake embedder, real Chroma, SQLite and jieba.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import RagError
from rag_core.evaluation.sessions import load_sessions
from rag_core.facade.access import LOCAL_ADMIN
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")


def test_a_blank_backup_destination_is_refused_and_nothing_is_written(tmp_path, monkeypatch):
    store = tmp_path / "store"
    fake_assistant(store).ingest_bytes("# 年假\n\n第一条 年假5天。\n".encode(), "leave.md")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    for blank in ("", "  "):
        with pytest.raises(RagError, match="请给出备份目录"):
            Assistant.backup_data_dir(store, blank, actor=LOCAL_ADMIN)
    assert list(here.iterdir()) == []


def test_a_document_list_preview_of_an_unknown_audience_is_refused(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes("# 高管薪酬\n\n第一条 年终奖十二个月。\n".encode(), "pay.md", audience=["hr"],
                                  actor=ADMIN).ok
    with pytest.raises(RagError, match="hr（HR）"):
        assistant.list_documents(role="HR", actor=ADMIN)
    assert [d.doc_id for d in assistant.list_documents(role="hr", actor=ADMIN)] == ["pay"]


def test_a_broken_session_line_is_refused_in_chinese(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": "a", "corpus": "samples", "turns": [}\n', encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        load_sessions(path)
    assert ":1: 不是合法的 JSON（第 1 行第" in str(refused.value)
    assert "Expecting" not in str(refused.value)
