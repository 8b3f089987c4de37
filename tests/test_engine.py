"""Integration: the real e5 model, real Chroma, real SQLite and jieba, through the facade."""

from __future__ import annotations

import pytest
from conftest import EVAL, open_assistant

from rag_core.answer.prompt import NOT_IN_POLICY

pytestmark = pytest.mark.integration


def test_literal_question_finds_its_article(shared_assistant):
    res = shared_assistant.search("年假天数怎么计算？")
    assert res.hit_count >= 1
    top = res.hits[0]
    assert "年假" in top.chunk.text and top.chunk.source == "01_attendance_leave.md"
    s = top.scores
    assert s.bm25 > 0 and s.bm25_rank is not None and s.cosine is not None and s.cosine_rank is not None
    assert s.fused > 0 and s.fused_rank == 1 and s.passed


def test_taxi_paraphrase_finds_the_taxi_clause(shared_assistant):
    res = shared_assistant.search("打车费能报吗？")
    assert "出租车" in res.expanded_terms
    assert any("出租车" in h.chunk.text for h in res.hits[:2])


def test_absent_question_gets_zero_hits_with_near_misses(shared_assistant):
    res = shared_assistant.search("公司年会预算是多少？")
    assert res.hit_count == 0
    assert res.near_misses, "the trace should show what fell below the threshold"
    assert all(not h.scores.passed for h in res.near_misses)


def test_a_topic_no_policy_mentions_is_not_answered_until_one_does(shared_assistant, store_copy):
    """公司有上下班班车吗 touches 上下班打卡 by its other words; no sample policy mentions a shuttle."""
    res = shared_assistant.search("公司有上下班班车吗？")
    assert res.hit_count == 0 and res.foreign_subjects == ["班车"]
    a = open_assistant(store_copy)
    shuttle = "# 通勤班车管理办法\n\n第三条 公司在工作日早晚各开行一班通勤车，员工凭工牌免费乘坐，发车时间为8:00和18:00。\n"
    assert a.ingest_bytes(shuttle.encode("utf-8"), "通勤班车管理办法.md").ok
    res = a.search("公司有上下班班车吗？")
    assert res.foreign_subjects == [] and res.hits and "通勤车" in res.hits[0].chunk.text


def test_ask_offline_quotes_sources_and_refuses_when_absent(shared_assistant):
    trace = shared_assistant.ask("病假需要提供什么证明？", user="")
    assert trace.hit_count >= 1 and "[资料1]" in trace.answer
    assert "【资料】" in trace.prompt and "[资料1]" in trace.prompt and trace.prompt_tokens > 0
    assert trace.answerer == "extractive"
    absent = shared_assistant.ask("员工宿舍怎么申请？", user="")
    assert absent.answer == NOT_IN_POLICY and absent.hit_count == 0
    assert "（未检索到任何通过阈值的条款）" in absent.prompt
    assert {"embed_ms", "bm25_ms", "vector_ms", "total_ms"} <= set(trace.search.timings_ms)


def test_eval_keeps_the_measured_figures(shared_assistant):
    """A regression guard at the figures docs/retrieval.md reports for the samples (not a quality claim:
    the shipped model saw these questions; the left-out figures are in the doc)."""
    report = shared_assistant.run_eval(EVAL)
    m = report["metrics"]
    assert m["literal"]["recall@3"] >= 0.95, m
    assert m["paraphrase"]["recall@3"] >= 0.75, m
    assert m["absent"]["zero_hit_rate"] >= 0.90, m
    assert m["near_miss"]["refusal_rate"] >= 0.65, m


def test_hybrid_beats_each_retriever_alone_on_the_eval(shared_assistant):
    hybrid = shared_assistant.run_eval(EVAL)["metrics"]
    bm25 = shared_assistant.run_eval(EVAL, mode="bm25")["metrics"]
    vector = shared_assistant.run_eval(EVAL, mode="vector")["metrics"]
    assert hybrid["paraphrase"]["recall@3"] > bm25["paraphrase"]["recall@3"]
    assert hybrid["paraphrase"]["recall@3"] > vector["paraphrase"]["recall@3"]


def test_new_version_replaces_old_and_identical_upload_is_a_no_op(store_copy):
    a = open_assistant(store_copy)
    first = a.ingest_bytes("# 测试制度\n\n第一条 紫藤条款。紫藤补贴每月 321 元。\n".encode(), "zt.md")
    again = a.ingest_bytes("# 测试制度\n\n第一条 紫藤条款。紫藤补贴每月 321 元。\n".encode(), "zt.md")
    assert first.status == "indexed" and again.status == "unchanged" and again.version == first.version
    second = a.ingest_bytes("# 测试制度\n\n第一条 紫藤条款。紫藤补贴每月 456 元。\n".encode(), "zt.md")
    assert second.version == first.version + 1
    texts = [h.chunk.text for h in a.search("紫藤补贴每月多少？").hits]
    assert any("456" in t for t in texts) and not any("321" in t for t in texts)
    assert [v.status for v in a.document_versions("zt")] == ["retired", "current"]


def test_bad_file_is_refused_and_nothing_changes(store_copy):
    a = open_assistant(store_copy)
    before = [(d.doc_id, d.version, d.chunk_count) for d in a.list_documents()]
    count = a.vectors.count()
    for data, name in [(b"", "empty.txt"), (b"%PDF-garbage\x00\x01", "broken.pdf"), (b"PK\x03\x04junk", "x.docx"), (b"abc", "x.xlsx")]:
        rep = a.ingest_bytes(data, name)
        assert rep.status == "refused" and name in rep.error
    assert [(d.doc_id, d.version, d.chunk_count) for d in a.list_documents()] == before
    assert a.vectors.count() == count


def test_delete_removes_everywhere_and_survives_restart(store_copy):
    a = open_assistant(store_copy)
    rep = a.ingest_bytes("第一条 独角兽条款。独角兽津贴按季度发放。\n".encode(), "unicorn.txt")
    assert a.search("独角兽津贴").hit_count >= 1
    assert a.delete_document(rep.doc_id) == rep.chunk_count
    assert a.search("独角兽津贴").hit_count == 0
    assert not any(c.doc_id == rep.doc_id for c in a.catalog.all_chunks())
    assert not [i for i in a.vectors.ids() if i.startswith(rep.doc_id + "@")]
    reopened = open_assistant(store_copy)
    assert reopened.search("独角兽津贴").hit_count == 0
    assert not [i for i in reopened.vectors.ids() if i.startswith(rep.doc_id)]


def test_restart_rebuilds_bm25_without_tokenising(store_copy, monkeypatch):
    import rag_core.documents.prepare
    import rag_core.text.tokenizer

    def boom(text):
        raise AssertionError("the corpus was tokenised again on restart")

    monkeypatch.setattr(rag_core.documents.prepare, "tokenize", boom)
    a = open_assistant(store_copy)
    assert len(a.keywords) > 100
    monkeypatch.setattr(rag_core.text.tokenizer, "tokenize", rag_core.text.tokenizer.tokenize)
    assert a.search("年假天数").hit_count >= 1


def test_unchanged_text_is_never_embedded_twice(store_copy):
    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 缓存条款。缓存测试的内容。\n".encode(), "cache.txt", doc_id="cache_a")
    computed = a.embedder.computed
    a.ingest_bytes("第一条 缓存条款。缓存测试的内容。\n".encode(), "cache.txt", doc_id="cache_b")
    assert a.embedder.computed == computed


def test_audience_filter_hides_documents_before_scoring(store_copy):
    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 高管补充。高管补充医疗额度为每年五万元。\n".encode(), "exec.txt", audience=["hr"])
    a.ingest_bytes("第一条 员工补充。员工补充医疗额度为每年五千元。\n".encode(), "staff.txt")
    for_staff = a.search("补充医疗额度是多少？", role="all")
    assert for_staff.hits and all(h.chunk.doc_id != "exec" for h in for_staff.hits + for_staff.near_misses)
    for_hr = a.search("补充医疗额度是多少？", role="hr")
    assert any(h.chunk.doc_id == "exec" for h in for_hr.hits)


def test_future_effective_date_is_not_retrieved_yet(store_copy):
    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 星光条款。星光补贴每月 100 元。\n".encode(), "star.txt")
    a.ingest_bytes("第一条 星光条款。星光补贴每月 999 元。\n".encode(), "star.txt", effective_date="2999-01-01")
    texts = [h.chunk.text for h in a.search("星光补贴每月多少？").hits]
    assert any("100" in t for t in texts) and not any("999" in t for t in texts)
    listed = {d.doc_id: d for d in a.list_documents()}
    assert listed["star"].version == 1


def test_switching_model_reembeds_instead_of_mixing(store_copy):
    b = open_assistant(store_copy, embedding_model="use")
    assert b.vectors.model_id == "use"
    assert b.vectors.count() == len(b.catalog.all_chunks())
    assert b.search("打车费能报吗？").hits


def test_crash_between_write_and_commit_keeps_the_old_version(store_copy, monkeypatch):
    a = open_assistant(store_copy)
    a.ingest_bytes("第一条 彩虹条款。彩虹补贴每月 10 元。\n".encode(), "rainbow.txt")

    def crash(name):
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(a.indexer, "fail_point", crash)
    with pytest.raises(RuntimeError):
        a.ingest_bytes("第一条 彩虹条款。彩虹补贴每月 20 元。\n".encode(), "rainbow.txt")
    texts = [h.chunk.text for h in a.search("彩虹补贴每月多少？").hits]
    assert any("10 元" in t for t in texts) and not any("20 元" in t for t in texts)
    assert [v.version for v in a.document_versions("rainbow")] == [1]
