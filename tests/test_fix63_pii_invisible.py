"""Review 63 (rev-pii D2-D4): an invisible or control character inside a number hid it from the masker.

redact_text("手机 138\u20660013\u20668000") came back unchanged (the masker's view dropped zero-width characters only,
not direction isolates, tag characters or C0/C1 controls), so a model answer or an eval upload with them was stored
unmasked, and a typed 文档ID was masked first and cleaned after: 年假13800\u2066138000 stored 年假13800138000 in the
doc id, chunk ids, catalog and Chroma. An audience label was never masked (张三13700001111 was stored as typed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.text.pii import redact_text

MARKS = ["\u2066", "\u202a", "\u061c", "\U000e0041", "\x01", "\x7f", "\x9b", "\u034f", "\ufe0f"]


@pytest.mark.parametrize("mark", MARKS)
def test_the_masker_reads_through_invisible_and_control_characters(mark: str) -> None:
    assert redact_text(f"手机 138{mark}0013{mark}8000") == "手机 [手机号]"
    assert redact_text(f"身份证 110105{mark}19491231002X") == "身份证 [身份证号]"


def test_line_breaks_and_tabs_still_part_numbers() -> None:
    from rag_core.text.digit_runs import SKIPPED_CHARS  # what the view reads through

    assert not re.search(f"[{SKIPPED_CHARS}]", "\t\n\r\x0b\x0c\x85")  # cells and lines stay apart
    assert redact_text("手机 139\x0c1234\x0c5678") == "手机 [手机号]"  # a form feed reads as a space


DOC = "# 年假制度\n\n第一条 员工年假按工龄计算。".encode()


def _files_with(root: Path, raw: str) -> list[str]:
    return [str(p) for p in root.rglob("*") if p.is_file() and raw.encode() in p.read_bytes()]


@pytest.mark.parametrize("mark", ["\u2066", "\x01", "\u202a"])
def test_a_typed_doc_id_is_cleaned_before_it_is_masked(tmp_path: Path, mark: str) -> None:
    """A hidden mark does not split the number from the masking; an id with a phone number is then refused (review
    349: two ids masked alike were one document), its echo masked."""
    a = fake_assistant(tmp_path)
    report = a.ingest_bytes(DOC, "f.md", doc_id=f"年假13800{mark}138000")
    assert report.status == "refused" and "13800138000" not in report.error and "[手机号]" in report.error
    assert _files_with(tmp_path, "13800138000") == []


class _LLM:
    name = "scripted"

    def complete(self, prompt: str) -> str:
        return "年假按工龄计算 [资料1]。请联系张三，手机 139\u20661234\u20665678。"

    def stream(self, prompt: str):
        text = self.complete(prompt)
        return iter([text[i : i + 3] for i in range(0, len(text), 3)])


def test_a_model_answer_and_an_eval_upload_are_masked_through_isolates(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path, llm=_LLM())
    a.ingest_bytes(DOC, "f.md")
    shown: list[str] = []
    trace = a.ask("年假怎么算", user="u1", conversation="c1", on_token=shown.append)
    assert "[手机号]" in trace.answer and "1234" not in trace.answer and "1234" not in "".join(shown)
    assert _files_with(tmp_path, "139\u20661234") == []
    row = {"question": "我手机 135\u20660000\u20662222 年假几天", "expected": "年假"}
    saved = a.save_eval_upload("q.jsonl", json.dumps(row, ensure_ascii=False).encode())
    assert "0000" not in saved.read_text(encoding="utf-8")


def test_an_audience_label_carrying_personal_data_is_refused(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path)
    for label in ("张三13700001111", "张三137\u20660000\u20661111"):
        report = a.ingest_bytes(DOC, "g.md", audience=[label])
        assert report.status == "refused" and "受众标签不能含手机号" in report.error, report.error
        assert "13700001111" not in report.error and "[手机号]" in report.error
    assert _files_with(tmp_path, "13700001111") == []
    assert a.ingest_bytes(DOC, "g.md", audience=["研发\u200b部"]).audience == ("研发部",)  # read as shown
