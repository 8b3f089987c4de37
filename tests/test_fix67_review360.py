"""Review 360's defects in the fourth round of this stop's fixes; each failed before its fix:

- a value under its label followed by more text on its line (QQ号⏎52013145（常用）) was left unmasked by the whole-line
  rule meant for dates and amounts under 手机;
- a `.env` that failed to read was marked read, and the next run opened the default store with default settings;
- a CHROMA_HOST of [::1] or a whole https:// address, which the client reads, was refused at start;
- an LLM_BASE_URL without http:// passed the start check and every answer failed;
- RAG_CHUNK_OVERLAP above the chunk size did not name its variable.
"""

from __future__ import annotations

import pytest

from rag_core import Settings, SettingsError
from rag_core.text.pii import redact_text


@pytest.mark.parametrize(("text", "masked"), [
    ("QQ号\n52013145（常用）", "QQ号\n[QQ号]（常用）"),
    ("座机\n62345678 转 8001", "座机\n[座机号] 转 8001"),
])
def test_a_value_under_its_label_with_a_note_or_extension_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", ["手机\n2024-01-01起", "座机\n1000-2000元", "QQ\n10000 元", "电话\n2024.01.01 开始执行",
                                  "QQ\n10000.00 元", "微信\nOffice365 账号由信息部开通"])
def test_a_date_amount_or_word_under_a_label_heading_stays(text: str) -> None:
    """A heading above a sentence is no form: the value must be its line's whole text but for a note in brackets or an
    extension (reviews 358, 361: 2024.01.01 became [座机号], Office365 [微信号])."""
    assert redact_text(text) == text


def test_a_dotenv_that_failed_to_read_is_read_again_and_said_in_chinese(tmp_path, monkeypatch, clean_env) -> None:
    import ui.state

    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_bytes("RAG_TOP_K=7\n# 注释\n".encode("gbk"))
    monkeypatch.setattr(ui.state, "_ENV_FILES_READ", set())
    for _ in range(2):  # the second run reads it again, and says the same
        with pytest.raises(SettingsError, match="UTF-8"):
            ui.state.app_settings()


# (an international or a zoned host too: review 362)
@pytest.mark.parametrize("host", ["[::1]", "localhost", "chroma-1.example.com", "向量库.公司.cn", "[fe80::1%eth0]"])
def test_chroma_hosts_the_client_reads_are_accepted(clean_env, host: str) -> None:
    clean_env.setenv("CHROMA_HOST", host)
    assert Settings.from_env(env_file=None).chroma_host == host


def test_an_llm_address_without_its_scheme_is_refused_by_its_variable(clean_env) -> None:
    clean_env.setenv("LLM_BASE_URL", "localhost:8000/v1")
    with pytest.raises(SettingsError, match="LLM_BASE_URL.*http://"):
        Settings.from_env(env_file=None)


def test_an_overlap_above_the_chunk_size_names_its_variable(clean_env) -> None:
    clean_env.setenv("RAG_CHUNK_OVERLAP", "300")
    with pytest.raises(SettingsError, match="RAG_CHUNK_OVERLAP 300.*240"):
        Settings.from_env(env_file=None)


def _promptless_script() -> None:
    from dataclasses import replace

    from trace_samples import sample_trace

    from ui.trace_view import render_trace_numbers

    render_trace_numbers(replace(sample_trace(), prompt=""))


def test_a_trace_kept_without_its_prompt_says_so_instead_of_an_empty_box(monkeypatch) -> None:
    """反馈审阅's copy of a rated answer keeps no prompt: an empty box read as "the model was given nothing"."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("RAG_TIMEZONE", "Asia/Shanghai")
    at = AppTest.from_function(_promptless_script, default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.code and any("没有保存完整提示词" in c.value for c in at.caption)


@pytest.mark.parametrize("host", ["chroma.example.com/chroma", "::1", "127.0.0.1:abc", "http://127.0.0.1"])
def test_chroma_hosts_the_client_misreads_are_refused_by_their_variable(clean_env, host: str) -> None:
    """Review 361: a path, a bare IPv6 or a scheme passed the start check and failed in chromadb's English (a scheme
    dropped CHROMA_PORT: keyword search only, the server up)."""
    clean_env.setenv("CHROMA_HOST", host)
    with pytest.raises(SettingsError, match="CHROMA_HOST"):
        Settings.from_env(env_file=None)


@pytest.mark.parametrize("url", ["http://", "http:///v1", "http:/localhost:8000/v1"])
def test_an_llm_address_without_a_host_is_refused(clean_env, url: str) -> None:
    clean_env.setenv("LLM_BASE_URL", url)
    with pytest.raises(SettingsError, match="LLM_BASE_URL"):
        Settings.from_env(env_file=None)


def test_a_chunk_size_below_the_overlap_names_its_variable(clean_env) -> None:
    clean_env.setenv("RAG_CHUNK_SIZE", "40")
    with pytest.raises(SettingsError, match="RAG_CHUNK_SIZE 40"):
        Settings.from_env(env_file=None)


def test_the_start_check_of_run_sh_says_a_bad_env_in_one_line(clean_env, capsys) -> None:
    """scripts/run.sh runs the serving check first: a refused LLM_BASE_URL was a traceback before the app's line."""
    from rag_core.accounts import serving

    clean_env.setenv("LLM_BASE_URL", "localhost:8000/v1")
    assert serving.main([]) == 1
    err = capsys.readouterr().err
    assert "LLM_BASE_URL" in err and "Traceback" not in err


@pytest.mark.parametrize(("text", "masked"), [
    ("本人QQ号\n52013145。", "本人QQ号\n[QQ号]。"),
    ("个人微信号\nzhangsan_2024；", "个人微信号\n[微信号]；"),
    ("座机\n62345678 转 8001。", "座机\n[座机号] 转 8001。"),
    ("QQ号\n52013145【常用】", "QQ号\n[QQ号]【常用】"),
])
def test_a_value_under_its_label_may_end_its_sentence(text: str, masked: str) -> None:
    """Review 362: the whole-line rule of review 361 left a value followed by 。 or ； in clear."""
    assert redact_text(text) == masked


def test_port_0_in_the_llm_address_is_refused(clean_env) -> None:
    clean_env.setenv("LLM_BASE_URL", "http://127.0.0.1:0/v1")
    with pytest.raises(SettingsError, match="LLM_BASE_URL"):
        Settings.from_env(env_file=None)
