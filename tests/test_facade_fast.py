"""Facade and CLI logic on the shared fakes: real Chroma and SQLite, no model, no network.

Each test builds its own small store in a temp dir in well under a second. The
bigram embedder's vectors carry little meaning, so which question finds which
policy follows mostly from the words (BM25, coverage, unknown words). The same flows with the real e5
model run in the `integration` tests (test_engine.py, test_cli.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import Result, invoke
from fakes import BigramEmbedder, NoReplyQueued, QueuedLLM, fake_assistant

import rag_core.cli
from rag_core.answer.prompt import NOT_IN_POLICY
from rag_core.cli import main
from rag_core.errors import SettingsError

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"
FOUND = "一线城市住宿上限是多少？"  # BM25 and coverage pass on travel.md
ABSENT = "公司年会预算是多少？"  # no policy has these words
NO_ANSWER_CALL = "无命中：不调用模型"


@pytest.fixture()
def llm() -> QueuedLLM:
    return QueuedLLM()


@pytest.fixture()
def assistant(tmp_path, llm):
    """A facade over two small policies (two chunks each), answering with the queued LLM."""
    facade = fake_assistant(tmp_path / "store", llm=llm)
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        assert facade.ingest_bytes(text.encode("utf-8"), name).ok
    return facade


# -- documents ------------------------------------------------------------------


def test_ingest_indexes_the_text_and_lists_it(assistant):
    docs = assistant.list_documents()
    assert [(doc.doc_id, doc.version, doc.chunk_count) for doc in docs] == [("leave", 1, 2), ("travel", 1, 2)]
    assert "600 元" in " ".join(chunk.text for chunk in assistant.document_chunks("travel"))
    assert assistant.vectors.count() == assistant.catalog.chunk_count() == 4
    assert assistant.search(FOUND).hits[0].chunk.doc_id == "travel"


def test_changed_content_under_the_same_name_is_a_new_version(assistant):
    report = assistant.ingest_bytes(TRAVEL.replace("600", "800").encode("utf-8"), "travel.md")
    assert (report.status, report.doc_id, report.version) == ("indexed", "travel", 2)
    assert {doc.doc_id: doc.version for doc in assistant.list_documents()} == {"leave": 1, "travel": 2}
    assert [info.version for info in assistant.document_versions("travel")] == [1, 2]
    hit_text = assistant.search(FOUND).hits[0].chunk.text
    assert "800 元" in hit_text and "600" not in hit_text  # the old version is not searched
    assert assistant.vectors.count() == assistant.catalog.chunk_count() == 4  # ...and its chunks are retired


def test_same_content_again_is_unchanged_and_not_embedded(tmp_path):
    embedder = BigramEmbedder()
    facade = fake_assistant(tmp_path / "store", embedder=embedder)
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").status == "indexed"
    embedded = embedder.passages_embedded
    again = facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md")
    assert (again.status, again.version) == ("unchanged", 1)
    assert embedder.passages_embedded == embedded


def test_delete_removes_every_version_from_every_store(assistant):
    assistant.ingest_bytes(TRAVEL.replace("600", "800").encode("utf-8"), "travel.md")
    assert assistant.delete_document("travel") == 2  # version 1's chunks were retired by version 2
    assert [doc.doc_id for doc in assistant.list_documents()] == ["leave"]
    assert assistant.document_versions("travel") == []
    assert assistant.search(FOUND).hit_count == 0
    assert assistant.vectors.count() == assistant.catalog.chunk_count() == 2
    assert assistant.delete_document("travel") == 0


def test_a_refused_file_leaves_the_store_unchanged(assistant):
    before = assistant.list_documents()
    report = assistant.ingest_bytes(b"not a pdf at all", "坏文件.pdf")
    assert report.status == "refused" and "坏文件.pdf" in report.error
    assert assistant.list_documents() == before


def test_audience_limits_listing_and_search(assistant):
    assistant.ingest_bytes("# 薪酬制度\n\n第一条 海豚补贴每月 77 元。\n".encode(), "pay.md", audience=["hr"])
    assert "pay" not in [doc.doc_id for doc in assistant.list_documents(role="managers")]
    assert "pay" in [doc.doc_id for doc in assistant.list_documents(role="hr")]
    assert assistant.search("海豚补贴", role="managers").hit_count == 0
    assert assistant.search("海豚补贴", role="hr").hits[0].chunk.doc_id == "pay"


def test_new_chunk_size_needs_a_reindex_which_writes_new_versions(assistant):
    assert assistant.update_settings(chunk_size=400, chunk_overlap=0) is True
    assert assistant.update_settings(top_k=3) is False
    assert assistant.reindex().chunks == 4  # one chunk per article (第一条, 第二条), as a fresh upload cuts them
    assert {doc.doc_id: (doc.version, doc.chunk_count) for doc in assistant.list_documents()} == {
        "leave": (2, 2), "travel": (2, 2),
    }


# -- thresholds -------------------------------------------------------------------


def test_the_answer_threshold_comes_from_the_settings(assistant):
    from fakes import FAKE_ANSWER_THRESHOLD

    assert assistant.decision.question_threshold == FAKE_ANSWER_THRESHOLD
    found = assistant.search(FOUND)
    assert found.hit_count >= 1 and assistant.search(ABSENT).hit_count == 0
    assistant.update_settings(answer_threshold=min(0.999, found.answerable + 0.001))  # just above this question
    assert assistant.search(FOUND).hit_count == 0
    assistant.update_settings(answer_threshold=0.001)  # any question passes the question step
    assert assistant.search(ABSENT).answerable >= 0.001


# -- answers --------------------------------------------------------------------------


def test_ask_with_zero_hits_does_not_call_the_llm(assistant, llm):
    tokens: list[str] = []
    trace = assistant.ask(ABSENT, on_token=tokens.append, remember=False)
    assert trace.search.hit_count == 0 and trace.sources == []
    assert (trace.answer, trace.answerer) == (NOT_IN_POLICY, NO_ANSWER_CALL)
    assert tokens == [NOT_IN_POLICY]
    assert llm.prompts == []


def test_ask_with_hits_returns_the_queued_reply(assistant, llm):
    reply = "一线城市每晚住宿上限 600 元 [资料1]。"
    llm.enqueue(f"  {reply}\n")
    trace = assistant.ask(FOUND, remember=False)
    assert (trace.answer, trace.answerer) == (reply, llm.name)
    assert llm.prompts == [trace.prompt]
    assert f"【问题】{FOUND}" in trace.prompt and "每晚上限 600 元" in trace.prompt
    assert [source.chunk_id for source in trace.sources] == [hit.chunk.chunk_id for hit in trace.search.hits]


def test_ask_streams_the_reply_through_on_token(assistant, llm):
    reply = "一线城市每晚住宿上限 600 元 [资料1]。"
    llm.enqueue(reply)
    pieces: list[str] = []
    trace = assistant.ask(FOUND, on_token=pieces.append, remember=False)
    assert len(pieces) > 1 and "".join(pieces) == trace.answer == reply
    assert llm.prompts == [trace.prompt]


def test_write_back_asks_the_same_llm_after_the_answer(assistant, llm):
    # the model words the fact; it must name something the person said (上海), or it is not kept. Only the
    # statement reaches it: the question itself is no memory (review 52k #1)
    llm.enqueue("住宿上限 600 元 [资料1]。").enqueue('{"content": "用户常驻上海", "kind": "profile"}')
    trace = assistant.ask(f"我常驻上海，{FOUND}", user="u1")
    assert len(llm.prompts) == 2 and llm.prompts[0] == trace.prompt
    assert "【用户的话】我常驻上海\n" in llm.prompts[1] and "【助手回答】住宿上限 600 元" in llm.prompts[1]
    contents = {memory.content for memory in assistant.list_memories("u1")}
    assert contents == {"用户常驻上海"}


def test_an_unqueued_call_fails_loudly():
    with pytest.raises(NoReplyQueued):
        QueuedLLM().complete("问题")
    assert list(QueuedLLM("abcdefghij", piece_chars=4).stream("问题")) == ["abcd", "efgh", "ij"]


# -- the command line on the fakes ------------------------------------------------------


@pytest.fixture()
def cli(monkeypatch, capsys, tmp_path, llm):
    """Run `main(["--data-dir", store, *args])` in-process with the fake embedder and LLM."""
    store = tmp_path / "store"
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir, llm=llm))

    def run(*args: str) -> Result:
        return invoke(capsys, "--data-dir", str(store), *args)

    return run


def write_policy(folder: Path, amount: int) -> Path:
    path = folder / "policy.md"
    path.write_text(f"# 试行制度\n\n第一条 海豚条款。海豚补贴每月 {amount} 元。\n", encoding="utf-8")
    return path


@pytest.fixture()
def cli_store(cli, tmp_path):
    """The two small policies ingested through the CLI (BM25 needs more than one document to weigh words)."""
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert cli("ingest", str(tmp_path / "travel.md"), str(tmp_path / "leave.md")).exit_code == 0
    return cli


def test_cli_ingest_version_list_and_delete(cli_store, tmp_path):
    cli = cli_store
    policy = write_policy(tmp_path, 77)
    assert cli("ingest", str(policy), "--audience", "hr").stdout == "policy.md: 已索引 policy v1，1 块，可见范围：HR\n"
    assert cli("ingest", str(policy), "--audience", "hr").stdout == "policy.md: 内容未变 policy v1，1 块，可见范围：HR\n"
    write_policy(tmp_path, 88)
    assert cli("ingest", str(policy), "--audience", "hr").stdout == "policy.md: 已索引 policy v2，1 块，可见范围：HR\n"
    docs = {doc["doc_id"]: doc for doc in cli("docs", "list", "--json").json()["documents"]}
    assert (docs["policy"]["version"], docs["policy"]["audience"]) == (2, ["hr"])
    assert "policy\tv2\tHR\t1 块\t试行制度\n" in cli("docs", "list").stdout  # audience display names (review 52m #3)
    assert cli("search", "海豚补贴", "--role", "all", "--json").json()["hit_count"] == 0
    shown = cli("search", "海豚补贴", "--role", "hr", "--json").json()
    assert shown["hit_count"] == 1 and "88" in shown["hits"][0]["text"]

    assert cli("docs", "delete", "policy").stdout == "已删除 policy（1 块），连同版本历史\n"
    missing = cli("docs", "delete", "policy")
    assert missing.exit_code == 1 and missing.stderr == "错误：没有文档 policy\n"
    assert [doc["doc_id"] for doc in cli("docs", "list", "--json").json()["documents"]] == ["leave", "travel"]


def test_cli_refused_file_exits_1_with_one_line(cli_store, tmp_path):
    cli = cli_store
    before = cli("docs", "list", "--json").stdout
    bad = tmp_path / "坏文件.pdf"
    bad.write_bytes(b"not a pdf at all")
    refused = cli("ingest", str(bad))
    assert refused.exit_code == 1 and refused.stdout == ""
    assert "坏文件.pdf" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert cli("docs", "list", "--json").stdout == before


def test_cli_ask_zero_hits_sends_no_answer_prompt(cli_store, llm):
    llm.enqueue("NONE")  # the memory write-back still asks what to remember
    trace = cli_store("ask", ABSENT, "--user", "u1", "--json").json()
    assert (trace["answer"], trace["answerer"], trace["hit_count"]) == (NOT_IN_POLICY, NO_ANSWER_CALL, 0)
    assert trace["prompt"] not in llm.prompts
    assert [prompt for prompt in llm.prompts if f"【助手回答】{NOT_IN_POLICY}" in prompt] == llm.prompts


def test_cli_ask_prints_the_reply_and_who_answered(cli_store, llm):
    llm.enqueue("一线城市每晚上限 600 元 [资料1]。").enqueue("NONE")
    result = cli_store("ask", FOUND)
    # the page's notes come between the answer and the count (a weak source here: the fake embedder's cosines)
    assert result.stdout == ("一线城市每晚上限 600 元 [资料1]。\n依据较弱：回答所依据的条款与问题只是相近，请核对原文。\n"
                             "出处：[资料1] travel.md · 第一条\n（命中 1 块，回答方式：queued-fake）\n")
    assert f"【问题】{FOUND}" in llm.prompts[0]


def test_cli_check_reads_every_chunk_back(cli_store):
    assert cli_store("check", "--json").json() == {"checked": 4, "rewritten": 0, "unreachable": []}


def test_cli_memory_add_list_delete(cli):
    added = cli("memory", "add", "用户对花生过敏", "--user", "u1", "--json").json()
    assert added["action"] == "added"
    assert [m["content"] for m in cli("memory", "list", "--user", "u1", "--json").json()["memories"]] == ["用户对花生过敏"]
    assert cli("memory", "delete", added["id"]).stdout.startswith("已删除 1 条")
    missing = cli("memory", "delete", added["id"])
    assert missing.exit_code == 1 and "找不到" in missing.stderr
    assert cli("memory", "list", "--user", "u1").stdout == "（该用户没有记忆）\n"


def test_cli_reports_a_refused_setting_with_exit_1(monkeypatch, capsys):
    def refuse(args):
        raise SettingsError("RAG_TOP_K 无法解析")

    monkeypatch.setattr(rag_core.cli, "open_assistant", refuse)
    assert main(["docs", "list"]) == 1
    assert capsys.readouterr().err == "错误：RAG_TOP_K 无法解析\n"


@pytest.mark.parametrize(
    "argv",
    [[], ["docs"], ["search"], ["ask", "问题", "--bogus"], ["search", "q", "--mode", "fuzzy"], ["eval"]],
    ids=["no-command", "docs-without-sub-command", "search-without-question", "unknown-option", "bad-mode", "eval-without-file"],
)
def test_cli_usage_errors_exit_2_before_opening_the_store(argv, monkeypatch, capsys):
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: pytest.fail("opened the store"))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("错误：") and "usage:" not in err  # one Chinese line (cli.ChineseArgumentParser)


def test_a_lost_sentence_file_is_rebuilt_on_the_next_start(tmp_path):
    store = tmp_path / "store"
    first = fake_assistant(store)
    assert first.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").ok
    chunks = first.catalog.chunk_count()
    assert first.sentences.count() == chunks
    first.sentences.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store / 'sentences.sqlite3'}{suffix}").unlink(missing_ok=True)
    reopened = fake_assistant(store)
    assert reopened.sentences.count() == chunks  # backfilled from the catalog and the embedding cache
