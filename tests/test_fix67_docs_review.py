"""Review 347's documents defects (fake embedder, real stores, the real 上传 form in AppTest). Each test is one of the
review's reproductions and failed before the fix, unless it says otherwise:

- review 347 #1: 是新版本 (the answer to a doc id clash) imported at once, with no 确认导入 question, even when the
  new version widened who may read the document (an HR-only policy became 全体员工 in one click).
- review 347 #2: 是新版本 imported a long file with no time question, no progress bar and no 取消导入.
- review 347 #3: a re-upload whose only change was the title (or the file name under an explicit 文档ID, or a
  heading) was reported 内容与当前版本完全相同 and dropped: the old title, name and citations stayed everywhere.
- review 347 #4: a damaged picture's refusal showed a Python class name (UnidentifiedImageError, OSError).
"""

from __future__ import annotations

import io
import re

import docx as pydocx
import streamlit
from fakes import fake_assistant
from test_upload_fixes_support import facade, page, policy, submit, text_of  # noqa: F401 (fixture)

import ui.uploads
from rag_core.types import Principal

HR, EMP = Principal("hr1", "hr"), Principal("emp1", "employee")
RUNNING_KEY = "doc_ingest_running"  # pages/documents.py: the batch being imported
ALLOWANCE = "第1条 高管津贴每月八千元，仅限HR内部掌握。\n\n第2条 高管津贴按季度发放。\n".encode()
ALLOWANCE_NEW = ALLOWANCE + "第3条 高管津贴随绩效浮动。\n".encode()


def clash_answered_yes(at):
    """The refused file's 是新版本 button, clicked (the page reruns once more, as a browser does, before asking)."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    yes = [b for b in at.button if b.label.startswith("是新版本")]
    assert yes, text_of(at)
    yes[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def confirm_button(at):
    return next((b for b in at.button if b.label == "确认导入"), None)


def test_a_new_version_widening_its_readers_is_asked_first(facade):  # noqa: F811
    """#1: an HR-only policy, its new version uploaded under another extension (an id clash) for 全体员工. 是新版本
    asks the readers question a plain upload asks, and nothing reaches employees until 确认导入."""
    assert facade.ingest_bytes(ALLOWANCE, "高管津贴.md", audience=["hr"]).ok
    at = clash_answered_yes(submit(page(), [("高管津贴.txt", ALLOWANCE_NEW)], audience=["all"]))
    assert confirm_button(at) is not None, text_of(at)
    assert "可见范围（全体员工）比它将取代的 v1（HR）宽" in text_of(at)  # the readers change, asked before
    assert [(d.version, d.audience) for d in facade.list_documents()] == [(1, ("hr",))]
    assert facade.search("高管津贴 每月 多少", actor=EMP).hits == []
    confirm_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [(d.version, d.audience) for d in facade.list_documents()] == [(2, ("all",))]
    assert not any(b.label.startswith("是新版本") for b in at.button)  # answered


def test_a_long_new_version_is_asked_first_then_imported_with_the_bar(facade, monkeypatch):  # noqa: F811
    """#2: a 60-chunk new version through 是新版本 gets the time question, and once confirmed is imported the way
    a plain upload is (`run_batch`): the bar is handed the import's progress, and the batch is marked running, so a
    page left mid-import says so on the next run."""
    assert facade.ingest_bytes(policy(2), "员工手册 v2.md").ok
    at = clash_answered_yes(submit(page(), [("员工手册(v2).md", policy(60, "新"))]))
    assert confirm_button(at) is not None, text_of(at)
    assert [d.version for d in facade.list_documents()] == [1]
    real, handed = ui.uploads.ingest_uploads, []

    def ingest_uploads(*args, **kwargs):
        handed.append((kwargs.get("progress") is not None, streamlit.session_state.get(RUNNING_KEY)))
        return real(*args, **kwargs)

    monkeypatch.setattr(ui.uploads, "ingest_uploads", ingest_uploads)
    confirm_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert handed == [(True, ["员工手册(v2).md"])]
    assert [(d.doc_id, d.version, d.chunk_count) for d in facade.list_documents()] == [("员工手册_v2", 2, 60)]


def word(title: str) -> bytes:
    doc = pydocx.Document()
    doc.core_properties.title = title  # the parser's document title
    doc.add_paragraph("第一条 员工每年享有带薪年假五天，须提前三天申请。")
    doc.add_paragraph("第二条 未休年假按日工资补偿。")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_a_new_title_alone_makes_a_new_version(tmp_path):
    """#3 (title): Word's 标题 corrected from 2023版 to 2024版, the text unchanged: a new version with the new title,
    which the list and every chunk then carry."""
    a = fake_assistant(tmp_path / "store")
    first = a.ingest_bytes(word("年假制度（2023版）"), "年假制度.docx", actor=HR)
    assert first.ok
    again = a.ingest_bytes(word("年假制度（2024版）"), "年假制度.docx", actor=HR)
    assert again.status != "unchanged", again
    [doc] = a.list_documents(actor=HR)
    assert (doc.version, doc.title) == (2, "年假制度（2024版）")
    assert {c.title for c in a.document_chunks(first.doc_id, actor=HR) if c.version == 2} == {"年假制度（2024版）"}


def test_a_new_file_name_under_an_explicit_doc_id_makes_a_new_version(tmp_path):
    """#3 (file name): the same bytes under another name, with the 文档ID given: the list shows the new name."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(policy(3), "年假制度.md", doc_id="annual_leave", actor=HR).ok
    again = a.ingest_bytes(policy(3), "年假制度（2024修订）.md", doc_id="annual_leave", actor=HR)
    assert again.status != "unchanged", again
    [doc] = a.list_documents(actor=HR)
    assert (doc.doc_id, doc.version, doc.source) == ("annual_leave", 2, "年假制度（2024修订）.md")


HEADINGS = "# 年假制度\n\n## 总则\n\n员工每年享有带薪年假五天，须提前三天申请。\n\n{level} 补偿\n\n未休年假按日工资补偿。\n"


def test_a_heading_change_alone_makes_a_new_version(tmp_path):
    """#3 (heading): 补偿 moved under 总则 (## → ###). The chunk texts are the same, the section path citations show
    is not (补偿 → 总则 > 补偿): a new version carrying the new path."""
    a = fake_assistant(tmp_path / "store")
    first = a.ingest_bytes(HEADINGS.format(level="##").encode(), "年假制度.md", actor=HR)
    assert first.ok
    again = a.ingest_bytes(HEADINGS.format(level="###").encode(), "年假制度.md", actor=HR)
    assert again.status != "unchanged", again
    assert [d.version for d in a.list_documents(actor=HR)] == [2]
    sections = [c.section for c in a.document_chunks(first.doc_id, actor=HR) if c.version == 2]
    assert "总则 > 补偿" in sections, sections


def test_an_exact_re_upload_is_still_reported_unchanged(tmp_path):
    """#3, the guard (passed before the fix too): the same file again, same title, name and headings, is
    内容与当前版本完全相同 and makes no version."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(word("年假制度（2024版）"), "年假制度.docx", actor=HR).ok
    again = a.ingest_bytes(word("年假制度（2024版）"), "年假制度.docx", actor=HR)
    assert again.ok and again.status == "unchanged", again
    assert [d.version for d in a.list_documents(actor=HR)] == [1]


def test_a_damaged_pictures_refusal_names_no_python_class(tmp_path):
    """#4: the refusal HR reads says in Chinese what is wrong and what to do, without the library's class name
    (a cut JPEG, a PNG signature followed by garbage)."""
    a = fake_assistant(tmp_path / "store")
    for name, data in (("扫描件.jpg", b"\xff\xd8\xff not a jpeg"), ("扫描件.png", b"\x89PNG\r\n\x1a\n garbage")):
        report = a.ingest_bytes(data, name, actor=HR)
        assert not report.ok and "图片无法打开" in (report.error or ""), report.error
        assert not re.findall(r"[A-Za-z]{5,}", report.error.split(":", 1)[-1]), report.error
    assert a.list_documents(actor=HR) == []
