"""Review 55c #1: a value a source clause kept (a hotline, an address HR kept at upload) is given back in a model's
answer only where the masker masked exactly that value; a longer address or number that holds it stays masked
whole, live, streamed and read again."""

from __future__ import annotations

from fakes import QueuedLLM, fake_assistant

from rag_core.text.kept import kept_values, masked_keeping
from rag_core.text.masked_spans import masked_spans
from rag_core.text.pii import redact_text

POLICY = "# 报销办法\n\n第一条 报销单据请发送至 hr@corp.com 由人事部审核。\n"
LONGER = ("zhang_hr@corp.com", "li-hr@corp.com", "hr@corp.com.cn")


def test_fix55c_a_kept_address_keeps_no_longer_address_that_holds_it(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(POLICY.encode(), "报销.md", redact_disabled=["email"]).ok
    a.llm = QueuedLLM("单据发送至 hr@corp.com [资料1]；张三的邮箱 zhang_hr@corp.com，李四 li-hr@corp.com，"
                      "王五 hr@corp.com.cn。")
    pieces: list[str] = []
    live = a.ask("报销单据发到哪个邮箱？", user="u1", conversation="c1", on_token=pieces.append)
    assert live.answerer == a.llm.name
    for text in (live.answer, "".join(pieces), a.get_conversation("c1").turns[0].answer):
        assert "发送至 hr@corp.com" in text and text.count("[邮箱]") == 3
        assert not any(longer in text for longer in LONGER)


def test_fix55c_a_kept_number_keeps_no_longer_number_that_holds_it() -> None:
    kept = kept_values(["第一条 心理援助热线电话：62345678，工作日接听。"])
    assert kept == frozenset({"62345678"})
    assert masked_keeping("请打 021-62345678", kept) == redact_text("请打 021-62345678") == "请打 [座机号]"
    assert masked_keeping("热线电话：62345678，或 021-62345678", kept) == "热线电话：62345678，或 [座机号]"
    for text in ("010-62345678-9012-3456", "电话 62345678-9012", "电话 62345678_1"):
        assert masked_keeping(text, kept) == redact_text(text)


def test_fix55c_a_placeholder_is_given_back_only_where_its_span_is_certain() -> None:
    """What each placeholder replaced is read back from the masked text; where the text could be cut in more than
    one way (a placeholder written right before a value), nothing is given back."""
    text = "邮箱 hr@corp.com 手机 13812345678。"
    _pieces, placeholders, spans = masked_spans(text)
    assert placeholders == ["[邮箱]", "[手机号]"]
    assert [text[slice(*span)] for span in spans if span] == ["hr@corp.com", "13812345678"]
    assert masked_spans("[邮箱]hr@corp.com")[2] == [None, None]
    assert masked_keeping("[邮箱]hr@corp.com", frozenset({"hr@corp.com"})) == "[邮箱][邮箱]"
