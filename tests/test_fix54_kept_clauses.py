"""Review 54a #1: a conversation read out again (a rerun of the chat page, reopening it, an export, the next
prompt) masks what the person wrote by today's masker, but leaves the document's clauses as stored: a hotline HR
kept at upload, or every category with RAG_REDACT_PII=false, is shown as the live answer showed it."""

from __future__ import annotations

import json
import sqlite3

from fakes import QueuedLLM, fake_assistant

HOTLINE = "010-62345678"
POLICY = f"# 员工关怀制度\n\n## 第一章 心理援助\n\n第一条 员工心理援助热线电话为 {HOTLINE}，工作日接听。\n"


def _with_kept_hotline(tmp_path, **overrides):
    a = fake_assistant(tmp_path / "s", **overrides)
    assert a.ingest_bytes(POLICY.encode(), "关怀.md", redact_disabled=["landline"]).ok
    return a


def test_fix54_a_kept_hotline_is_shown_again_as_the_live_answer_showed_it(tmp_path) -> None:
    a = _with_kept_hotline(tmp_path)
    live = a.ask("心理援助热线电话是多少？", user="u1", conversation="c1")
    assert HOTLINE in live.answer
    _conv, traces = a.open_conversation("c1")
    again = traces[-1]
    assert HOTLINE in again.answer
    assert all(HOTLINE in s.text for s in again.sources) and HOTLINE in again.prompt
    assert HOTLINE in a.get_conversation("c1").turns[0].answer
    assert "62345678" in a.export_conversation_markdown("c1")  # escaped for Markdown: 010\\-62345678


def test_fix54_with_masking_off_a_clause_is_not_masked_on_reading(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s", redact_pii=False)
    assert a.ingest_bytes("# 报销办法\n\n第一条 报销单据请发送至 finance@example.com 由财务部审核。\n".encode(), "报销.md").ok
    assert "finance@example.com" in a.ask("报销单据发到哪个邮箱？", user="u1", conversation="c1").answer
    assert "finance@example.com" in a.get_conversation("c1").turns[0].answer


def test_fix54_what_the_person_wrote_is_still_masked_beside_a_kept_clause(tmp_path) -> None:
    """A question an older masker let through (Chinese digits) is masked in the turn, the trace and the prompt,
    while the clause the prompt quotes keeps its hotline."""
    a = _with_kept_hotline(tmp_path)
    a.ask("心理援助热线电话是多少？", user="u1", conversation="c1")
    raw = "一三八一二三四五六七八"
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:
        trace = json.loads(conn.execute("SELECT trace FROM turns").fetchone()[0])
        trace["question"] = f"我的手机{raw}，热线是多少？"
        trace["prompt"] = trace["prompt"] + f"\n【问题】{trace['question']}"
        conn.execute("UPDATE turns SET question = ?, trace = ?", (trace["question"], json.dumps(trace, ensure_ascii=False)))
    turn = a.get_conversation("c1").turns[0]
    assert raw not in turn.question and raw not in json.dumps(turn.trace, ensure_ascii=False)
    assert HOTLINE in turn.trace["prompt"] and "[手机号]" in turn.trace["prompt"]


def test_fix54_a_model_answer_is_masked_on_reading(tmp_path) -> None:
    """A model's answer is its words, not a clause's: an older version's masker may have missed what it
    repeated, so it is masked again as read out."""
    a = _with_kept_hotline(tmp_path, llm_base_url="http://127.0.0.1:9")
    a.llm = QueuedLLM("热线是 010-62345678 [资料1]。")
    a.ask("心理援助热线电话是多少？", user="u1", conversation="c1")
    raw = "一三八一二三四五六七八"
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:
        conn.execute("UPDATE turns SET answer = ?", (f"您可以打 {raw} [资料1]",))
    assert raw not in a.get_conversation("c1").turns[0].answer


def test_fix54_a_gap_shows_its_nearest_clause_as_stored(tmp_path) -> None:
    """HR's knowledge gaps show the nearest clause as the document keeps it (a hotline kept at upload), while the
    question the person typed is masked by today's masker."""
    from datetime import UTC, datetime

    a = fake_assistant(tmp_path / "s")
    raw = "一三八一二三四五六七八"
    question = f"我的手机{raw}，热线是多少"
    a.insight_log.log_question(
        asked_at=datetime.now(UTC).isoformat(timespec="seconds"), user="u1", role="employee", question=question,
        outcome="zero_hit", hit_count=0, cited_docs=[], model=a.embedder.model_id,
        nearest={"text": f"第一条 员工心理援助热线电话为 {HOTLINE}。", "doc_id": "d", "audience": []},
        vector=a.embedder.embed_query(question))
    dump = json.dumps([g.to_dict() for g in a.knowledge_gaps()], ensure_ascii=False)
    assert HOTLINE in dump and raw not in dump


def test_fix54_the_question_words_a_hit_lacks_are_masked_beside_its_kept_clause(tmp_path) -> None:
    """A hit's scores (the question words it lacks, why it matched) are the person's words: masked on reading,
    while the hit's clause keeps its hotline (review 54h #3)."""
    a = _with_kept_hotline(tmp_path)
    a.ask("心理援助热线电话是多少？", user="u1", conversation="c1")
    raw = "一三八一二三四五六七八"
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:
        trace = json.loads(conn.execute("SELECT trace FROM turns").fetchone()[0])
        assert trace["hits"]
        for hit in trace["hits"]:
            hit["scores"]["missing"] = [raw]
            hit["scores"]["why"] = f"条款里没有：{raw}"
        conn.execute("UPDATE turns SET trace = ?", (json.dumps(trace, ensure_ascii=False),))
    turn = a.get_conversation("c1").turns[0]
    dumped = json.dumps(turn.trace, ensure_ascii=False)
    assert raw not in dumped
    assert all(HOTLINE in hit["text"] for hit in turn.trace["hits"])


def test_fix54_a_model_quoting_a_kept_hotline_keeps_it_live_streamed_and_reread(tmp_path) -> None:
    """A model's answer keeps a value its source's document kept (the hotline), as the source beside it shows it:
    in the stored answer, in the pieces streamed, and when the conversation is read again; a number the model
    wrote that no source holds is still masked (review 54h #2)."""
    a = _with_kept_hotline(tmp_path)
    a.llm = QueuedLLM(f"心理援助热线电话为 {HOTLINE} [资料1]，也可以打 13812345678。")
    pieces: list[str] = []
    live = a.ask("心理援助热线电话是多少？", user="u1", conversation="c1", on_token=pieces.append)
    assert live.answerer == a.llm.name
    for text in (live.answer, "".join(pieces), a.get_conversation("c1").turns[0].answer):
        assert HOTLINE in text and "13812345678" not in text and "[手机号]" in text


def test_fix54_a_model_repeating_a_number_no_source_kept_masks_it(tmp_path) -> None:
    """Only what the answer's own sources hold is kept: the same hotline, when no source quotes it, is masked."""
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 考勤制度\n\n第一条 员工每日应打卡两次。\n".encode(), "考勤.md").ok
    a.llm = QueuedLLM(f"请打卡，也可以拨打 {HOTLINE} [资料1]。")
    trace = a.ask("每天要打卡几次？", user="u1", conversation="c1")
    assert HOTLINE not in trace.answer and HOTLINE not in a.get_conversation("c1").turns[0].answer


def test_fix54_kept_values_are_what_masking_would_replace() -> None:
    from rag_core.text.kept import kept_values, masked_keeping

    assert kept_values([f"热线 {HOTLINE}，工作日接听。", "年假5天，补贴300元。"]) == frozenset({HOTLINE})
    assert masked_keeping(f"打 {HOTLINE} 或 13812345678", frozenset({HOTLINE})) == f"打 {HOTLINE} 或 [手机号]"


def test_fix54_a_kept_hotline_in_a_neutralised_clause_stays_in_the_reread_prompt(tmp_path) -> None:
    """The prompt gives a clause another form (【】 neutralised as 〖〗): the hotline it kept stays when the
    conversation is read again, by value, not by the clause's whole text (review 54h #4)."""
    a = fake_assistant(tmp_path / "s")
    policy = f"# 员工关怀制度\n\n第一条 【心理援助热线】电话为 {HOTLINE}，工作日接听。\n"
    assert a.ingest_bytes(policy.encode(), "关怀.md", redact_disabled=["landline"]).ok
    live = a.ask("心理援助热线电话是多少？", user="u1", conversation="c1")
    assert HOTLINE in live.prompt
    assert HOTLINE in a.get_conversation("c1").turns[0].trace["prompt"]


def test_fix54_a_kept_value_inside_a_longer_number_is_not_kept() -> None:
    """A kept mobile's digits inside a longer run (a bank card written without spaces) keep nothing of it: the
    longer number is masked whole."""
    from rag_core.text.kept import masked_keeping

    card = "6222021381234567890"
    out = masked_keeping(f"卡号 {card}，热线 13812345678", frozenset({"13812345678"}))
    assert card not in out and "1381234567" not in out.split("热线")[0] and out.endswith("13812345678")


def test_fix54_kept_values_are_whole_runs_never_pieces() -> None:
    """Review 54k #1 and #2: a kept 12345 (a QQ) or 62345678 (a hotline without its area code) keeps no mobile that
    holds its digits; two hotlines written one after the other are one run, kept only together; an address is kept
    only whole."""
    from rag_core.text.kept import kept_values, masked_keeping

    qq = kept_values(["第一条 员工服务QQ：12345，工作日在线答复。"])
    assert masked_keeping("QQ为 12345，也可以打 13812345678。", qq) == "QQ为 12345，也可以打 [手机号]。"
    assert "13862345678" not in masked_keeping("热线 62345678，或 13862345678", kept_values(["热线电话：62345678，工作日"]))
    two = kept_values(["A：138 1234 5678 B：139 8765 4321 "])
    assert two == frozenset({"138 1234 5678", "139 8765 4321"})
    assert masked_keeping("您登记的手机 186 8765 4321", two) == "您登记的手机 [手机号]"
    mail = kept_values(["报销单据请发送至 finance@example.com 由财务部审核。"])
    assert masked_keeping("发到 a.finance@example.com", mail) == "发到 [邮箱]"


def test_fix54_a_citation_taken_out_does_not_join_a_number_into_the_answer(tmp_path) -> None:
    """Review 54k: the guard took out a citation the prompt never had (139123[资料9]45678), which joined two runs of
    digits into a mobile after masking; the answer is masked again after the guard."""
    a = _with_kept_hotline(tmp_path)
    a.llm = QueuedLLM("请拨打 139123[资料9]45678 咨询 [资料1]。")
    trace = a.ask("心理援助热线电话是多少？", user="u1", conversation="c1")
    assert "13912345678" not in trace.answer and "13912345678" not in a.get_conversation("c1").turns[0].answer
