"""Review 388 (a newcomer's first hour): a model half set up says what is missing; who answered is said in words on
the command line as on the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant_with_samples

from rag_core import AnswerNotes


def _use(monkeypatch, facade) -> None:
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)


@pytest.mark.parametrize("setting, missing", [({"llm_base_url": "http://127.0.0.1:8080/v1"}, "LLM_API_KEY"),
                                              ({"llm_model_id": "qwen2.5-7b"}, "LLM_API_KEY"),
                                              ({"llm_api_key": "sk-test-1234"}, "LLM_MODEL_ID")])
def test_a_model_half_set_up_is_said_in_the_status_and_by_ask(tmp_path: Path, capsys, monkeypatch, setting,
                                                              missing) -> None:
    a = fake_assistant_with_samples(tmp_path / "store", **setting)
    assert missing in a.llm_status and "未配置大模型" not in a.llm_status
    _use(monkeypatch, a)
    result = invoke(capsys, "ask", "年假有几天？")
    assert missing in result.stderr
    assert "回答方式：离线抽取式（摘录原文）" in result.stdout and "extractive" not in result.stdout


def test_nothing_set_is_said_as_nothing_set(tmp_path: Path) -> None:
    assert fake_assistant_with_samples(tmp_path / "store").llm_status == "离线抽取式回答（未配置大模型）"


def test_who_answered_after_a_model_failed_is_said_in_words(tmp_path: Path) -> None:
    trace = fake_assistant_with_samples(tmp_path / "store").ask("年假有几天？")
    trace.answerer = "extractive（大模型不可用：超时）"
    assert AnswerNotes.answerer_of(trace) == "离线抽取式（摘录原文）（大模型不可用：超时）"


def test_a_bad_address_is_refused_naming_the_variable_that_was_set(tmp_path: Path, monkeypatch) -> None:
    from rag_core.errors import SettingsError
    from rag_core.settings import Settings

    monkeypatch.delenv("LLM_BASE_URL", raising=False)
    monkeypatch.setenv("RAG_LLM_BASE_URL", "localhost:8080")
    with pytest.raises(SettingsError, match="RAG_LLM_BASE_URL"):
        Settings.from_env(data_dir=tmp_path, env_file=None)


@pytest.mark.parametrize("argv", [["--help"], ["ask", "--help"], ["search", "--help"], ["doctor", "--help"]])
def test_the_command_line_help_is_framed_in_chinese(capsys, argv) -> None:
    from rag_core.cli import main

    with pytest.raises(SystemExit):
        main(argv)
    shown = capsys.readouterr().out
    assert shown.startswith("用法：") and "显示本帮助" in shown
    assert not any(word in shown for word in ("usage:", "positional arguments", "options:", "show this help"))


def test_ask_explains_its_options_and_a_bad_number_is_said_in_chinese(capsys) -> None:
    from rag_core.cli import main

    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    assert "用到谁的记忆" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["search", "年假", "--top-k", "abc"])
    assert "不是整数" in capsys.readouterr().err
