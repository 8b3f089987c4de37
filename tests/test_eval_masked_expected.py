"""An uploaded question set's `expected` is masked whole (`masked_question_set`); a clause whose uploader kept that
category unmasked (redact_disabled) still counts as found: the placeholder is looked for in the clause masked too
(review 51d, 2)."""

from __future__ import annotations

import json

from fakes import fake_assistant

from rag_core import Principal
from rag_core.evaluation.metrics import first_relevant_rank

LOCAL = Principal(user="local", role="admin")


def test_a_masked_expected_finds_a_clause_whose_email_was_kept(tmp_path) -> None:
    assistant = fake_assistant(tmp_path / "s")
    body = "报销制度\n\n第五条 报销有疑问请发邮件至 hr-help@corp.example 咨询财务共享中心。\n"
    assert assistant.ingest_bytes(body.encode(), "报销.txt", redact_disabled=["email"], actor=LOCAL).ok
    row = {"question": "报销有疑问发邮件给谁", "category": "literal", "expected": ["hr-help@corp.example"]}
    saved = assistant.save_eval_upload("set.jsonl", (json.dumps(row, ensure_ascii=False) + "\n").encode(), actor=LOCAL)
    assert "hr-help@corp.example" not in saved.read_text(encoding="utf-8")
    assert assistant.run_eval(saved, actor=LOCAL)["metrics"]["literal"]["recall@1"] == 1.0


def test_plain_substrings_are_matched_as_before() -> None:
    assert first_relevant_rank(["年假5天", "病假"], [["病假"]]) == 2
    assert first_relevant_rank(["年假5天"], [["[邮箱]"]]) is None
