"""An uploaded question set reaches the disk with personal data masked, and still loads as the same set."""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant

from rag_core.evaluation.metrics import load_questions

PHONE = "13812345678"
ROWS = [
    {"question": f"我手机{PHONE}，年假几天", "category": "literal", "expected": ["年假5天"]},
    {"question": "病假工资怎么发放？", "category": "literal", "expected": ["病假"]},
]


def _upload(tmp_path: Path, name: str, data: bytes) -> Path:
    return fake_assistant(tmp_path / "store").save_eval_upload(name, data)


def test_questions_are_masked_on_disk_and_the_file_still_loads(tmp_path: Path) -> None:
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS).encode("utf-8")
    saved = _upload(tmp_path, "set.jsonl", data)
    assert PHONE.encode() not in saved.read_bytes()
    rows = load_questions(saved)
    assert [r["category"] for r in rows] == ["literal", "literal"]
    assert "13812345678" not in rows[0]["question"] and rows[0]["question"].startswith("我手机")
    assert rows[1]["question"] == ROWS[1]["question"]
    assert saved.read_bytes().splitlines()[1] == data.splitlines()[1]  # nothing personal: bytes kept


def test_a_line_the_loader_refuses_is_masked_and_keeps_its_number(tmp_path: Path) -> None:
    data = (json.dumps(ROWS[1], ensure_ascii=False) + "\n" + f'{{"question": "我手机{PHONE}" broken\n').encode()
    saved = _upload(tmp_path, "set.jsonl", data)
    assert PHONE.encode() not in saved.read_bytes()
    assert len(saved.read_bytes().splitlines()) == 2


def test_the_file_name_is_masked(tmp_path: Path) -> None:
    saved = _upload(tmp_path, f"张三{PHONE}.jsonl", b'{"question": "x", "category": "literal"}\n')
    assert PHONE not in saved.name and saved.suffix == ".jsonl"
