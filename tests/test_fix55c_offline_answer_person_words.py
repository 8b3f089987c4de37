"""Review 55c #2: an offline answer is read out as stored (a document's sentences), but the words in it that the
person wrote are masked by today's masker: the acknowledgement after the quotes (`engine_tail`, 好的，我记住了：…)
and the question's words a refusal names (没有写明「…」的规定). A row an older masker stored (a phone in Chinese
digits) is simulated by editing the stored row, as the other read-out tests do."""

from __future__ import annotations

import json
import sqlite3

from fakes import fake_assistant

RAW = "一三八一二三四五六七八"


def _edit_stored(a, edit) -> None:
    """Rewrite the stored answer and its trace as an older version could have stored them."""
    with sqlite3.connect(a.settings.path("conversations.sqlite3")) as conn:
        answer, trace = conn.execute("SELECT answer, trace FROM turns").fetchone()
        answer, trace = edit(answer, json.loads(trace))
        trace["answer"] = answer
        conn.execute("UPDATE turns SET answer = ?, trace = ?", (answer, json.dumps(trace, ensure_ascii=False)))


def _read_out(a) -> list[str]:
    """The conversation as read again: the turn, the reopened trace and the Markdown export."""
    _conversation, traces = a.open_conversation("c1")
    return [a.get_conversation("c1").turns[0].answer, traces[-1].answer, a.export_conversation_markdown("c1")]


def test_fix55c_the_acknowledgement_after_an_offline_answer_is_masked_on_reading(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 考勤制度\n\n第一条 员工每日应打卡两次，上班一次，下班一次。\n".encode(), "考勤.md").ok
    live = a.ask("我在销售部。每天要打卡几次？", user="u1", conversation="c1")
    assert live.answerer == "extractive" and live.engine_tail and live.answer.endswith(live.engine_tail)

    def older(answer: str, trace: dict) -> tuple[str, dict]:
        tail = f"{trace['engine_tail']}手机{RAW}。"
        trace["engine_tail"] = tail
        return answer[: -len(live.engine_tail)] + tail, trace

    _edit_stored(a, older)
    for text in _read_out(a):
        assert RAW not in text and "[手机号]" in text.replace("\\", "")  # the export escapes [ ]
        assert "员工每日应打卡两次" in text  # the quoted clause as stored


def test_fix55c_the_question_words_an_offline_refusal_names_are_masked_on_reading(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 假期制度\n\n## 丧假\n\n第一条 员工父母、配偶、子女去世，可请丧假3天。\n".encode(), "假期.md").ok
    live = a.ask("丧假工资是多少？", user="u1", conversation="c1")
    assert live.answerer == "extractive" and "没有写明「工资」" in live.answer
    _edit_stored(a, lambda answer, trace: (answer.replace("「工资」", f"「手机{RAW}」"), trace))
    for text in _read_out(a):
        assert RAW not in text and "[手机号]" in text.replace("\\", "")  # the export escapes [ ]
        assert "找到的相近条款（第一条 员工父母）" in text
