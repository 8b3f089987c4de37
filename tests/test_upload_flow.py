"""The documents page before and during a long ingest: the estimate, the question, the cancelled batch.

AppTest cannot drive st.file_uploader, so a pending batch is put in the session as the
form's submit leaves it. The page runs on the fake-embedder facade (ui.state.open_assistant
patched), not the real model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def policy(articles: int) -> bytes:
    return "".join(f"第{i}条 员工年假第 {i} 项规定，每年按工龄计算天数，须提前三天申请。\n\n" for i in range(1, articles + 1)).encode()


@pytest.fixture()
def facade(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import ui.state

    assistant = fake_assistant(tmp_path / "store", ingest_seconds_per_chunk=0.62, ingest_confirm_seconds=10)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "store"))
    return assistant


def documents_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def text_of(at: AppTest) -> str:
    """What the page says, with markdown escapes dropped (file names are shown inert)."""
    kinds = ("markdown", "info", "warning", "error", "success")
    return "\n".join(str(el.value) for kind in kinds for el in getattr(at, kind)).replace("\\", "")


def test_the_question_names_each_file_and_the_estimate(facade) -> None:
    from ui.uploads import confirmation_question, estimate_text, estimate_uploads

    files = [("长制度.txt", policy(40)), ("短通知.txt", policy(2)), ("坏文件.docx", b"PK\x03\x04 not a docx")]
    estimates = estimate_uploads(facade, files)
    question = confirmation_question(estimates)
    assert question is not None and ("分钟" in question or "秒" in question)
    assert "长制度.txt" in question and "坏文件.docx：将被拒绝" in question and "可以随时取消" in question
    assert f"{estimates[0].chunk_count + estimates[1].chunk_count} 块" in estimate_text(estimates)
    assert confirmation_question(estimate_uploads(facade, files[1:2])) is None  # short: no question
    assert facade.list_documents() == []  # estimating wrote nothing


def test_a_long_batch_waits_for_confirmation_then_imports(facade) -> None:
    from ui.uploads import confirmation_question, estimate_text, estimate_uploads

    files = [("长制度.txt", policy(40))]
    estimates = estimate_uploads(facade, files)
    at = documents_page()
    at.session_state["doc_pending_upload"] = {
        "files": files, "audience": ["all"], "doc_id": None, "effective_date": None, "redact_disabled": [],
        "question": confirmation_question(estimates), "summary": estimate_text(estimates),
    }
    at.run()
    shown = text_of(at)
    assert "长制度" in shown and f"{estimates[0].chunk_count} 块" in shown and facade.list_documents() == []  # asked only
    next(b for b in at.button if b.label == "确认导入").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [d.source for d in facade.list_documents()] == ["长制度.txt"]
    assert "doc_pending_upload" not in at.session_state


def test_dropping_the_batch_imports_nothing(facade) -> None:
    at = documents_page()
    at.session_state["doc_pending_upload"] = {
        "files": [("长制度.txt", policy(40))], "audience": ["all"], "doc_id": None, "effective_date": None,
        "redact_disabled": [], "question": "这次导入共 60 块", "summary": "共 60 块",
    }
    at.run()
    next(b for b in at.button if b.label == "放弃这次导入").click().run()
    assert facade.list_documents() == [] and "已放弃这次导入" in text_of(at)


def test_a_batch_cut_short_says_which_files_were_not_imported(facade) -> None:
    first = facade.ingest_bytes(policy(2), "已完成.txt")
    at = documents_page()
    at.session_state["doc_ingest_running"] = ["已完成.txt", "进行中.txt", "排队的.txt"]  # what a cancelled run leaves
    at.session_state["doc_ingest_reports"] = [first]
    at.session_state["doc_ingest_done"] = 1  # counted apart from the reports: a new version's run leaves them be
    at.run()
    shown = text_of(at)
    assert "进行中.txt、排队的.txt 没有导入" in shown and "已完成的 1 个文件保留" in shown
