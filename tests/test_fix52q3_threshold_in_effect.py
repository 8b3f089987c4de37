"""The settings page says which question threshold applies now (review 52q3 #4): it showed both fitted values
(0.350, and 0.100 below 40 readable chunks) but not which one this store's questions meet. The facade answers from
the retriever's own count of the acting person's readable chunks; the page prints 现为 X."""

from __future__ import annotations

from fakes import fake_assistant
from test_fix52p3_fitted_threshold import settings_page, small_store

from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
LONG = "# 考勤制度\n\n" + "".join(f"第{i}条 员工第{i}项考勤事项须按本条第{i}款办理并留存记录。\n\n" for i in range(1, 200))


def test_a_small_store_meets_the_small_store_threshold_and_a_set_one_replaces_it(tmp_path):
    assistant = small_store(tmp_path)
    model = assistant.decision
    assert model.small_store and model.small_question_threshold is not None
    assert assistant.question_threshold_in_effect(actor=ADMIN) == model.small_question_threshold
    assistant.update_settings(answer_threshold=0.42, actor=ADMIN)
    assert assistant.question_threshold_in_effect(actor=ADMIN) == 0.42


def test_a_store_past_the_small_store_size_meets_the_usual_threshold(tmp_path):
    assistant = fake_assistant(tmp_path / "store", answer_threshold=None, chunk_size=60, chunk_overlap=0)
    assert assistant.ingest_bytes(LONG.encode(), "考勤.md", actor=ADMIN).ok
    model = assistant.decision
    assert sum(d.chunk_count for d in assistant.list_documents(actor=ADMIN)) >= model.small_store
    assert assistant.question_threshold_in_effect(actor=ADMIN) == model.question_threshold


def test_the_settings_page_prints_the_threshold_in_effect(tmp_path, monkeypatch):
    assistant = small_store(tmp_path)
    at = settings_page(assistant, tmp_path, monkeypatch)
    shown = " ".join(c.value for c in at.caption)
    assert f"现为 {assistant.decision.small_question_threshold:.3f}" in shown, shown
