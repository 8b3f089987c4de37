"""Typed text is bounded and valid: a runaway question, a lone surrogate or bad bytes get one Chinese line.

Nothing is searched, encoded or stored for a refused question; a question is
encoded once per ask however many steps read its vector.
"""

from __future__ import annotations

import pytest
from cli_support import invoke
from fakes import BigramEmbedder, fake_assistant, fake_assistant_with_samples

from rag_core.errors import RagError
from rag_core.text.inputs import MAX_QUESTION_CHARS, InputError, checked


@pytest.fixture(autouse=True)
def fast_cli(monkeypatch):
    """CLI commands open the fake-embedder facade (the e5 model is for the integration tests)."""
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))


@pytest.fixture()
def embedder() -> BigramEmbedder:
    return BigramEmbedder()


@pytest.fixture()
def assistant(tmp_path, embedder):
    a = fake_assistant_with_samples(tmp_path / "store", embedder=embedder)
    return a


@pytest.mark.parametrize(
    ("text", "reason"),
    [("年" * (MAX_QUESTION_CHARS + 1), "太长"), ("年假\udcff有几天", "无法识别"), ("   \n ", "不能为空"),
     (b"\xff\xfe\x00", "UTF-8"), (None, "文字"), ("\u200b\u200b", "不能为空"), ("\ufeff \u2060", "不能为空"),
     ("\u200e\u200f", "不能为空"), ("\u2800", "不能为空"), ("\u2066\u2069", "不能为空")],
    ids=["too-long", "lone-surrogate", "blank", "bad-bytes", "not-text", "zero-width-only", "invisible-only",
         "direction-marks", "braille-blank", "isolates"],
)
def test_bad_text_is_refused_with_one_chinese_line(text, reason: str) -> None:
    with pytest.raises(InputError) as info:
        checked(text)
    assert reason in str(info.value) and "\n" not in str(info.value)


def test_good_text_is_kept_with_control_characters_as_spaces() -> None:
    assert checked("  年假\x00有几天？\t") == "年假 有几天？"
    assert checked("年" * MAX_QUESTION_CHARS) == "年" * MAX_QUESTION_CHARS
    assert checked("年假有几天".encode()) == "年假有几天"


def test_a_runaway_question_is_refused_before_any_model_or_store_sees_it(assistant, embedder) -> None:
    with pytest.raises(InputError, match="太长"):
        assistant.ask("年假有几天？" * 2000, conversation="c1")
    with pytest.raises(InputError, match="太长"):
        assistant.search("年假有几天？" * 2000)
    assert embedder.queries == []
    assert assistant.insight_log.question_rows() == []
    assert assistant.list_conversations("local") == []


def test_a_question_is_encoded_once_per_ask(assistant, embedder) -> None:
    assistant.add_standard_answer("公司有班车吗？", "没有班车。")  # the standard answers read the vector too
    assistant.remember("local", "用户在研发部工作")
    embedder.queries.clear()
    question = "公司有没有健身房？"  # a gap: the log keeps its vector too
    trace = assistant.ask(question, conversation="c1")
    assert trace.hit_count == 0
    assert embedder.queries.count(question) == 1, embedder.queries


def test_the_cli_refuses_a_surrogate_in_one_line(tmp_path, capsys) -> None:
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "ask", "年假\udcff有几天")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "无法识别" in lines[0]


def test_a_renamed_title_is_checked_and_masked(assistant) -> None:
    trace = assistant.ask("年假有几天", conversation="c1")
    assert trace.conversation == "c1"
    assistant.rename_conversation("c1", "张三 13812345678 的年假")
    [conv] = assistant.list_conversations("local")
    assert "13812345678" not in conv.title
    with pytest.raises(RagError, match="无法识别"):
        assistant.rename_conversation("c1", "乱码\ud800")


@pytest.mark.parametrize(("comment", "reason"), [("不对\ud800", "无法识别"), ("不对" * 1_500_000, "太长")])
def test_a_feedback_comment_is_checked_before_it_is_masked_or_stored(assistant, comment, reason) -> None:
    """A surrogate raised a raw UnicodeEncodeError, a 3M-character comment was masked whole before its cut,
    control characters were stored (helper-41 10)."""
    trace = assistant.ask("年假有几天")
    with pytest.raises(RagError, match=reason):
        assistant.record_feedback(trace, -1, reason=assistant.feedback_reasons[0], comment=comment)
    assert assistant.feedback_reviews() == []
    assistant.record_feedback(trace, -1, reason=assistant.feedback_reasons[0], comment="不对\x00\x01，年假是五天")
    assert [e.comment for e in assistant.feedback_reviews()] == ["不对  ，年假是五天"]


def test_an_invisible_feedback_comment_is_no_comment(assistant) -> None:
    """The comment is optional: one of zero-width characters refused the whole rating (helper-44 7)."""
    trace = assistant.ask("年假有几天")
    assistant.record_feedback(trace, -1, reason=assistant.feedback_reasons[0], comment="\u200b\u200e")
    assert [e.comment for e in assistant.feedback_reviews()] == [""]


@pytest.mark.parametrize("kind", ["missing", "folder", "binary", "not-json", "not-an-object"])
def test_a_question_set_that_cannot_be_read_is_one_chinese_line(tmp_path, capsys, kind) -> None:
    """`eval` printed a FileNotFoundError, IsADirectoryError or UnicodeDecodeError traceback (helper-45 15)."""
    path = tmp_path / "set.jsonl"
    if kind == "folder":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00\x81" * 10)
    elif kind == "not-json":
        path.write_text("{question: 年假}\n", encoding="utf-8")
    elif kind == "not-an-object":
        path.write_text('["年假有几天"]\n', encoding="utf-8")
    result = invoke(capsys, "--data-dir", str(tmp_path / "store"), "eval", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.stdout + result.stderr and str(path) in result.stdout + result.stderr
