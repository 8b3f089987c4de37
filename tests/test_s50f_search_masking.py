"""The CLI's `search` and the eval search what chat searches: personal data masked, a statement left out.

`search` called `Assistant.search`, which masked nothing: an ID number typed into the question was embedded,
searched and printed back, and the hits differed from `ask`'s (which masks and splits off what the asker says
about themself). The eval did the same with its questions. Fake embedder, real Chroma, SQLite and jieba; the
CLI runs in-process on the fake facade.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import BigramEmbedder, fake_assistant

import rag_core.cli as cli
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
ID_NUMBER = "110101199003077777"
POLICY = "# 加班管理制度\n\n第一条 加班费按照国家规定计算，工作日加班按 1.5 倍工资支付。\n"


@pytest.fixture()
def store(tmp_path, monkeypatch):
    """A data dir holding one policy, and the embedder every facade the CLI opens on it shares."""
    monkeypatch.chdir(tmp_path)
    embedder = BigramEmbedder()
    data = tmp_path / "store"
    assert fake_assistant(data, embedder=embedder).ingest_bytes(POLICY.encode(), "加班.md", actor=ADMIN).ok
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir), embedder=embedder))
    return data, embedder


def test_cli_search_masks_the_question_it_searches_and_prints(store, capsys):
    data, embedder = store
    embedder.queries.clear()
    for extra in ((), ("--json",)):
        result = invoke(capsys, "--data-dir", str(data), "search", f"加班费怎么算？我的身份证{ID_NUMBER}", *extra)
        assert result.exit_code == 0, result.stderr
        assert ID_NUMBER not in result.stdout + result.stderr
    assert embedder.queries and not any(ID_NUMBER in q for q in embedder.queries)
    # a clause that only gives masked personal data is not searched at all (review 376 #1)
    assert json.loads(result.stdout)["query"] == "加班费怎么算？"


def test_cli_search_leaves_out_a_statement_about_the_asker_as_chat_does(store, capsys):
    data, _ = store
    typed = "我在北京工作。加班费怎么算？"
    shown = invoke(capsys, "--data-dir", str(data), "search", typed, "--json")
    chat = fake_assistant(data).search_as_chat(typed, actor=ADMIN, with_memories=False)
    assert shown.json()["query"] == chat.result.query == "加班费怎么算？"
    assert [h["chunk_id"] for h in shown.json()["hits"]] == [h.chunk.chunk_id for h in chat.result.hits]


def test_the_facade_search_masks_the_question(store):
    data, embedder = store
    found = fake_assistant(data, embedder=embedder).search(f"加班费怎么算？我的身份证{ID_NUMBER}", actor=ADMIN)
    assert ID_NUMBER not in found.query and not any(ID_NUMBER in q for q in embedder.queries)


def test_eval_questions_are_masked_before_they_are_searched_returned_or_shown(store, tmp_path):
    data, embedder = store
    questions = tmp_path / "eval.jsonl"
    row = {"question": f"加班费怎么算？我的身份证{ID_NUMBER}", "category": "literal", "expected": ["1.5 倍"]}
    questions.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    embedder.queries.clear()
    report = fake_assistant(data, embedder=embedder).run_eval(questions, actor=ADMIN)
    assert ID_NUMBER not in json.dumps(report, ensure_ascii=False)
    assert "[身份证号]" in report["results"][0]["question"]
    assert embedder.queries and not any(ID_NUMBER in q for q in embedder.queries)
