"""Shared fixtures: an offline environment and one indexed sample store per session.

Ingesting the samples with the real e5 model takes a while on two cores, so the
session builds one store and tests that change it work on a copy.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["ANONYMIZED_TELEMETRY"] = "False"
for _var in ("LLM_API_KEY", "LLM_BASE_URL", "LLM_MODEL_ID", "RAG_DATA_DIR", "EMBEDDING_MODEL"):
    if _var != "EMBEDDING_MODEL" or os.environ.get("KEEP_EMBEDDING_MODEL") != "1":
        os.environ.pop(_var, None)

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


def copy_store(src: Path, dest: Path) -> Path:
    """Copy a data dir as a new store with its own Chroma collection (embedded or server)."""
    shutil.copytree(src, dest)
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
