"""An uploaded question set keeps no personal data on disk in any field: only `question` was masked; `expected`,
`any_of` and extra fields were stored as typed in eval_uploads/ and every backup (review 51).

Fake embedder, real Chroma, SQLite and jieba; each test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant

from rag_core.evaluation.metrics import load_questions
from rag_core.text.pii import redact_text

PHONE, ID = "13812345678", "11010519491231002X"


def _jsonl(*rows: object) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def test_an_upload_keeps_no_personal_data_in_any_field(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "store")
    row = {"question": "工资卡怎么换", "category": "literal", "expected": [f"联系张三 {PHONE}"],
           "any_of": [[f"电话 {PHONE}"], ["工资卡"]], "note": f"身份证 {ID}", "extra": {"who": [f"手机{PHONE}"]}}
    saved = a.save_eval_upload("pii.jsonl", _jsonl(row).encode())
    text = saved.read_text(encoding="utf-8")
    assert PHONE not in text and ID not in text, text
    loaded = load_questions(saved)[0]
    assert loaded["expected"] == [redact_text(f"联系张三 {PHONE}")]  # matches a chunk, masked the same way
    assert loaded["alternatives"] == [[redact_text(f"电话 {PHONE}")], ["工资卡"]]
    assert loaded["question"] == "工资卡怎么换"
