"""Review 356's defects found in a real browser, checked here in AppTest (fake embedder, real stores; no browser).
Each test is one of the review's reproductions (/tmp/rev_browser/repro_0N.py) and failed before the fix:

- #1: 文档管理 said 每个文件不超过 20 MB, and its upload box took 20 MB, whatever RAG_MAX_FILE_MB was.
- #2: 检索测试's question-set box took 20 MB under a caption saying 4 MB.
- #3: 反馈审阅 → 查看完整依据 showed the stored trace as raw JSON with 77 English keys, where chat's 技术细节 shows
  the same trace in Chinese.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant

from rag_core import Principal

LOCAL = Principal(user="local", role="admin")


def walk(node: Any):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from walk(child)


def upload_boxes(at) -> dict[str, int]:
    """Each upload box on the page: its label and the per-file limit the browser enforces and shows (N MB per file)."""
    return {n.proto.label: n.proto.max_upload_size_mb for n in walk(at._tree) if getattr(n, "type", "") == "file_uploader"}


def test_the_documents_page_states_and_enforces_the_engines_file_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """#1 (repro_01, review 356): with RAG_MAX_FILE_MB=5 the caption still promised 20 MB and the box took a 12 MB
    file, refused only after 开始导入."""
    assistant = fake_assistant(tmp_path / "store", max_file_mb=5)
    serve_desktop(assistant, tmp_path, monkeypatch)
    page = open_desktop_page("pages/documents.py")
    said = [c.value for c in page.caption if "MB" in c.value]
    assert any("不超过 5 MB" in c for c in said) and not any("20 MB" in c for c in said), said
    boxes = upload_boxes(page)
    assert len(boxes) == 1 and list(boxes.values()) == [5], boxes


def test_the_eval_upload_box_takes_what_its_caption_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """#2 (repro_02, review 356): the caption said a question set may be 4 MB, the box under it '20MB per file'; a
    10 MB set was accepted by the box and refused only after 运行评测."""
    assistant = fake_assistant(tmp_path / "store")
    serve_desktop(assistant, tmp_path, monkeypatch)
    page = open_desktop_page("pages/retrieval_test.py")
    most_bytes, _ = assistant.eval_upload_limits
    limit = math.ceil(most_bytes / 2**20)
    assert any(f"不超过 {most_bytes / 2**20:g} MB" in c.value for c in page.caption)
    assert upload_boxes(page).get("或上传题集") == limit


def test_the_full_basis_of_a_rated_answer_is_shown_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """#3 (repro_03, review 356): 查看完整依据 was a JSON dump (query, hit_count, chunk_id, bm25, near_misses …). It
    is now chat's 技术细节 view, in Chinese; the raw record only inside an expander 原始记录, one click further."""
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes("# 年假制度\n\n第一条 员工每年享有带薪年假五天。\n".encode(), "年假.md", actor=LOCAL).ok
    trace = assistant.ask("员工每年享有带薪年假几天？", user=LOCAL.user, actor=LOCAL)
    assistant.record_feedback(trace, -1, actor=LOCAL, reason=assistant.feedback_reasons[0], comment="不对")
    serve_desktop(assistant, tmp_path, monkeypatch)
    page = open_desktop_page("pages/feedback_review.py")
    next(t for t in page.toggle if t.label == "查看完整依据").set_value(True).run()
    assert not page.exception, [e.value for e in page.exception]
    raw = [e for e in page.expander if e.label.startswith("原始记录")]
    assert len(raw) == 1, [e.label for e in page.expander]
    inside = {id(node) for node in walk(raw[0])}
    shown = list(page.json)
    assert shown and all(id(j) in inside for j in shown), "the raw JSON must sit only inside 原始记录"
    headings = [m.value for m in page.markdown if id(m) not in inside]
    assert "**检索分数**" in headings and "**各阶段耗时**" in headings, headings
    frames = [f.value for f in page.dataframe if id(f) not in inside]
    assert frames and not {"chunk_id", "bm25", "fused_rank"} & {str(c) for f in frames for c in f.columns}
