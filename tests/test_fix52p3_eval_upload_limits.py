"""Review 52p #3: an uploaded question set too large to run is refused before any of it is masked or written.

50,000 rows were masked (22 s) and kept under eval_uploads/ before the 2,000-question limit refused them at the
run; a 20 MB upload was masked for about 90 s with nothing shown. Real facade with the fake embedder.
"""

from __future__ import annotations

import json

import pytest
from fakes import fake_assistant

import rag_core.facade.eval_upload as eval_upload
from rag_core import RagError
from rag_core.evaluation.runner import MAX_QUESTIONS

ROW = json.dumps({"question": "年假有几天？", "category": "literal", "expected": ["年假"]}, ensure_ascii=False)


@pytest.fixture
def no_masking(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Records every set that reached the masking step (and so would be written)."""
    masked: list[bytes] = []
    real = eval_upload.masked_question_set

    def recording(data: bytes) -> bytes:
        masked.append(data)
        return real(data)

    monkeypatch.setattr("rag_core.facade.maintenance.masked_question_set", recording)
    return masked


def test_a_set_over_the_question_limit_is_refused_unmasked_and_unwritten(tmp_path, no_masking):
    a = fake_assistant(tmp_path / "s")
    with pytest.raises(RagError) as refused:
        a.save_eval_upload("big.jsonl", "\n".join([ROW] * 50_000).encode())
    assert "50,000 道题" in str(refused.value) and f"最多评测 {MAX_QUESTIONS:,} 道" in str(refused.value)
    assert "没有保存" in str(refused.value)
    assert not no_masking
    assert not list((tmp_path / "s").glob("eval_uploads/*"))


def test_a_file_over_the_size_limit_is_refused_naming_it(tmp_path, no_masking):
    a = fake_assistant(tmp_path / "s")
    long_row = json.dumps({"question": "年假" * 240, "category": "literal", "expected": ["年假" * 400]}, ensure_ascii=False)
    data = "\n".join([long_row] * 1_900).encode()  # under the question limit, over the size limit
    assert len(data) > eval_upload.MAX_UPLOAD_BYTES
    with pytest.raises(RagError) as refused:
        a.save_eval_upload("long.jsonl", data)
    assert f"上传上限 {eval_upload.MAX_UPLOAD_BYTES // eval_upload.MB} MB" in str(refused.value)
    assert not no_masking
    assert not list((tmp_path / "s").glob("eval_uploads/*"))


def test_a_set_at_the_limit_with_blank_lines_is_kept_masked(tmp_path, no_masking):
    a = fake_assistant(tmp_path / "s")
    rows = [ROW] * (MAX_QUESTIONS - 1) + [json.dumps({"question": "我手机13812345678，年假几天？", "category": "literal",
                                                       "expected": ["年假"]}, ensure_ascii=False)]
    saved = a.save_eval_upload("ok.jsonl", ("\n\n".join(rows) + "\n\n").encode())  # blank lines are no questions
    assert saved.is_file() and len(no_masking) == 1
    assert "13812345678" not in saved.read_text(encoding="utf-8")
