"""Version history with what changed: the current version marked, chunks added/removed, a short diff.

Real Chroma and SQLite on the fake embedder (tests/fakes.py); the text of a
retired version is gone from the catalog, so the comparison must come from the
history kept when each version was written.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.errors import PermissionDenied
from rag_core.facade.history import compare
from rag_core.types import Principal

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
TRAVEL_V2 = TRAVEL.replace("600", "800")


@pytest.fixture()
def assistant(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").version == 1
    return facade


def test_first_version_is_current_and_all_new(assistant):
    (only,) = assistant.document_changes("travel")
    assert (only.version, only.is_current, only.known, only.added, only.removed) == (1, True, True, 2, 0)


def test_a_new_version_says_what_changed_though_the_old_chunks_are_retired(assistant):
    assert assistant.ingest_bytes(TRAVEL_V2.encode("utf-8"), "travel.md").version == 2
    assert assistant.catalog.chunks_of("travel", 1) == []  # retired: the catalog no longer has its text
    new, old = assistant.document_changes("travel")  # newest first
    assert (new.version, new.is_current, new.status) == (2, True, "current")
    assert (old.version, old.is_current, old.status) == (1, False, "retired")
    assert (new.added, new.removed, new.unchanged) == (1, 1, 1)
    assert any(line.startswith("- ") and "600" in line for line in new.diff)
    assert any(line.startswith("+ ") and "800" in line for line in new.diff)
    assert not any("网约车" in line for line in new.diff)  # the unchanged clause is not in the diff


def test_deleting_a_document_deletes_its_recorded_text(assistant):
    assistant.ingest_bytes(TRAVEL_V2.encode("utf-8"), "travel.md")
    assistant.delete_document("travel")
    assert assistant.version_texts.texts("travel", 1) is None
    assert assistant.version_texts.texts("travel", 2) is None
    assert assistant.document_changes("travel") == []


def test_an_employee_may_not_read_version_history(assistant):
    with pytest.raises(PermissionDenied):
        assistant.document_changes("travel", actor=Principal(user="e1", role="employee"))


def test_compare_counts_and_a_short_diff():
    added, removed, unchanged, diff = compare(["甲", "乙"], ["甲", "丙", "丁"])
    assert (added, removed, unchanged) == (2, 1, 1)
    assert diff[0] == "- 乙" and "+ 丙" in diff
    many = compare([f"旧{i}" for i in range(40)], [f"新{i}" for i in range(40)])[3]
    assert len(many) <= 13 and many[-1] == "…"
