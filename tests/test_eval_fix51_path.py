"""A typed eval path is masked in its refusal: text[:80] was shown raw on the retrieval test page (review 51).

Fake embedder, real Chroma, SQLite and jieba; each test failed before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

import ui.state
from rag_core.errors import RagError

PHONE = "13812345678"
APP = str(Path(__file__).resolve().parent.parent / "app.py")


def test_a_typed_eval_path_is_masked_in_its_refusal(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(RagError) as refused:
        a.resolve_eval_file(f"张三 {PHONE} 110105199003071239.jsonl")
    said = str(refused.value)
    assert PHONE not in said and "110105199003071239" not in said and "[手机号]" in said, said


def test_the_retrieval_test_page_shows_the_refused_path_masked(tmp_path: Path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_eval_path").set_value(f"张三 {PHONE} 110105199003071239.jsonl")
    next(b for b in at.button if b.label == "运行评测").click().run()
    errors = [e.value for e in at.error]
    assert errors and not any(PHONE in e or "110105199003071239" in e for e in errors), errors
