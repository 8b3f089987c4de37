"""A masked eval upload stays loadable, and a row that is not JSON is said in Chinese.

An escaped U+2028/U+2029/U+0085 in a question with personal data was written raw by the masking
(json.dumps(ensure_ascii=False)); the loader splits lines there, so the saved upload was refused with
…:1: 不是合法的 JSON（Unterminated string starting at）— the parser's English, too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.evaluation.metrics import QuestionSetError, load_questions

BREAKS = "\u2028\u2029\u0085"


@pytest.fixture()
def app(tmp_path: Path):
    return fake_assistant(tmp_path / "store")


def test_a_masked_question_with_line_separators_stays_one_row(app) -> None:
    rows = [{"question": f"我手机13812345678，年假{BREAKS}几天？", "category": "literal", "expected": ["年假"]},
            {"question": "病假要什么证明？", "category": "literal", "expected": ["病假"]}]
    data = "".join(json.dumps(row) + "\n" for row in rows).encode()  # escaped, as most tools write JSON
    saved = app.save_eval_upload("questions.jsonl", data)
    loaded = load_questions(saved)
    assert [r["question"] for r in loaded][1] == "病假要什么证明？"
    assert "13812345678" not in loaded[0]["question"] and BREAKS in loaded[0]["question"]
    assert saved.read_bytes().count(b"\n") == 2


def test_a_row_that_is_not_json_is_said_in_chinese(app, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "年假几天？", "category": "literal"}\n{"question": "病假\n', encoding="utf-8")
    with pytest.raises(QuestionSetError) as info:
        app.run_eval(bad)
    said = str(info.value)
    assert said.endswith(":2: 不是合法的 JSON（第 2 行第 14 列引号没有成对）"), said
    assert not re.search(r"[A-Za-z]{4,}", said.replace(str(bad), "").replace("JSON", "")), said  # no English left


def test_a_trailing_comma_names_its_likely_cause(tmp_path: Path) -> None:
    bad = tmp_path / "comma.jsonl"
    bad.write_text('{"question": "年假几天？", "category": "literal",}\n', encoding="utf-8")
    with pytest.raises(QuestionSetError, match="第 1 行第 .* 列应是带双引号的字段名，常见原因是最后一项后面多了逗号"):
        load_questions(bad)
