"""After the embedding model changes, earlier knowledge gaps stay (review rev-upgrade D4): the questions and 👎 kept
under another model are embedded again with the current one when the gaps are first read. The start that rebuilds
the library's vectors for the new model says so in one store notice (D5)."""

from __future__ import annotations

from pathlib import Path

from fakes import BigramEmbedder, fake_assistant

from rag_core.facade.access import LOCAL_ADMIN


class OtherModel(BigramEmbedder):
    model_id = "fake-bigrams-48"
    dim = 48


def _with_gaps(store: Path):
    assistant = fake_assistant(store)
    assistant.ensure_samples()
    for question in ("量子计算机编程怎么学？", "公司有没有宠物保险？"):
        assistant.ask(question, conversation="c1")
    trace = assistant.ask("年假有几天？", conversation="c2")
    assistant.record_feedback(trace, -1, reason="答非所问")
    before = sum(g.count for g in assistant.knowledge_gaps(actor=LOCAL_ADMIN))
    assert before >= 2
    assistant.catalog.close()
    return before


def test_gaps_outlive_a_model_change(tmp_path: Path) -> None:
    store = tmp_path / "store"
    before = _with_gaps(store)
    other = OtherModel()
    assistant = fake_assistant(store, embedder=other)
    gaps = assistant.knowledge_gaps(actor=LOCAL_ADMIN)
    assert sum(g.count for g in gaps) == before
    asked = len(other.queries)
    again = assistant.knowledge_gaps(actor=LOCAL_ADMIN)  # embedded once: the second read asks the model nothing
    assert sum(g.count for g in again) == before and len(other.queries) == asked
    export = assistant.export_insights("gaps", "csv", actor=LOCAL_ADMIN)
    text = export.decode("utf-8-sig") if isinstance(export, bytes) else export
    assert "宠物保险" in text


def test_the_start_says_the_library_was_embedded_again(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = fake_assistant(store)
    first.ensure_samples()
    chunks = first.catalog.chunk_count()
    first.catalog.close()
    assistant = fake_assistant(store, embedder=OtherModel())
    said = [line for line in assistant.store_notices if "重建" in line and "fake-bigrams-48" in line]
    assert said and f"{chunks} 块" in said[0] and "fake-bigrams-64" in said[0], assistant.store_notices
    assistant.catalog.close()
    same = fake_assistant(store, embedder=OtherModel())  # nothing rebuilt: nothing said
    assert not any("重建" in line for line in same.store_notices)


def test_the_settings_page_says_what_a_model_change_costs(tmp_path, monkeypatch) -> None:
    from app_support import point_the_app_at
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "s")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(c.value for c in at.caption)
    assert "所有文档的向量重建" in said and "重新归组" in said
