"""Shared fixtures: an isolated environment, and one indexed sample store per session.

Ingesting the samples with the real e5 model takes a while on two cores, so the
session builds one store and tests that change it work on a copy.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from rag_core.settings import ALIASES

# Set at import, not only in the fixtures: session fixtures load the model before any
# function-scoped fixture runs, and nothing may try the network then either.
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
os.environ.update(OFFLINE)

# The machine's own configuration that must not reach a test: every RAG_* variable (the
# data dir included) and the alias names of settings. CHROMA_HOST/CHROMA_PORT pass through
# on purpose (the `server` tests run against a Chroma server named by them); EMBEDDING_MODEL
# passes only with KEEP_EMBEDDING_MODEL=1, to run the suite on another model.
USER_CONFIG = {name for field, name in ALIASES.items() if not field.startswith("chroma_")} - {"EMBEDDING_MODEL"}


def isolate_environment(patch: pytest.MonkeyPatch) -> None:
    """Offline model hub and no telemetry; no LLM, data dir or RAG_* setting from the machine."""
    for name, value in OFFLINE.items():
        patch.setenv(name, value)
    for name in list(os.environ):
        if name.startswith("RAG_") or name in USER_CONFIG:
            patch.delenv(name)
    if os.environ.get("KEEP_EMBEDDING_MODEL") != "1":
        patch.delenv("EMBEDDING_MODEL", raising=False)


@pytest.fixture(scope="session", autouse=True)
def session_environment():
    """The isolation for the session fixtures (the sample store), which run before any test's own fixtures."""
    with pytest.MonkeyPatch.context() as patch:
        isolate_environment(patch)
        yield


@pytest.fixture(autouse=True)
def env_setup(monkeypatch):
    """Each test starts isolated, whatever an earlier test or `.env` load left; its own changes are undone after it."""
    isolate_environment(monkeypatch)


ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
EVAL = ROOT / "tests" / "data" / "eval.jsonl"


def open_assistant(data_dir: Path, **overrides):
    from rag_core.assistant import Assistant

    return Assistant.open(data_dir=data_dir, env_file=None, **overrides)


@pytest.fixture(scope="session")
def sample_store(tmp_path_factory) -> Path:
    """A data dir with the eight sample policies indexed (read-only for tests)."""
    path = tmp_path_factory.mktemp("sample_store")
    a = open_assistant(path)
    reports = a.ensure_samples()
    assert reports and all(r.ok for r in reports), [r.error for r in reports]
    a.catalog.close()
    del a
    return path


# What people did with a store rather than what it indexes: a copy starts without them, so a test
# never sees the questions, conversations or memories that tests on the shared store left behind.
USE_RECORDS = ("insights.sqlite3", "conversations.sqlite3", "memory.sqlite3", "accounts.sqlite3", "audit.sqlite3")


def copy_store(src: Path, dest: Path) -> Path:
    """Copy a data dir's index as a new store with its own Chroma collection (embedded or server)."""
    shutil.copytree(src, dest)
    for name in USE_RECORDS:
        for suffix in ("", "-wal", "-shm"):
            (dest / f"{name}{suffix}").unlink(missing_ok=True)
    # the collection is rebuilt from the copied embedding cache on first open
    with sqlite3.connect(dest / "catalog.sqlite3") as db:
        db.execute("DELETE FROM meta WHERE key='store_id'")
    return dest


@pytest.fixture()
def store_copy(sample_store, tmp_path) -> Path:
    """A private copy of the sample store that a test may change."""
    return copy_store(sample_store, tmp_path / "store")


@pytest.fixture(scope="session")
def shared_assistant(sample_store):
    """One read-only assistant over the sample store."""
    return open_assistant(sample_store)
