"""The environment every test starts from (conftest.py): offline, and none of the machine's own settings."""

from __future__ import annotations

import os

import pytest
from conftest import isolate_environment

from rag_core import Settings


def test_a_test_sees_no_machine_configuration():
    assert [name for name in os.environ if name.startswith("RAG_")] == []
    assert not {"LLM_API_KEY", "LLM_BASE_URL", "LLM_MODEL_ID"} & set(os.environ)
    assert (os.environ["HF_HUB_OFFLINE"], os.environ["TRANSFORMERS_OFFLINE"]) == ("1", "1")
    assert os.environ["ANONYMIZED_TELEMETRY"] == "False"
    assert not Settings.from_env(env_file=None).llm_configured


def test_isolation_removes_settings_and_is_undone_afterwards(monkeypatch):
    machine = {"RAG_TOP_K": "7", "RAG_DATA_DIR": "/srv/hr", "LLM_API_KEY": "sk-machine", "MEMORY_THRESHOLD": "0.5",
               "CHROMA_HOST": "chroma.internal", "EMBEDDING_MODEL": "use"}
    for name, value in machine.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("KEEP_EMBEDDING_MODEL", raising=False)
    with pytest.MonkeyPatch.context() as patch:
        isolate_environment(patch)
        assert {name for name in machine if name in os.environ} == {"CHROMA_HOST"}  # the `server` tests need it
    assert {name: os.environ.get(name) for name in machine} == machine


def test_keep_embedding_model_lets_the_suite_run_on_another_model(monkeypatch):
    monkeypatch.setenv("EMBEDDING_MODEL", "use")
    monkeypatch.setenv("KEEP_EMBEDDING_MODEL", "1")
    with pytest.MonkeyPatch.context() as patch:
        isolate_environment(patch)
        assert os.environ["EMBEDDING_MODEL"] == "use"
