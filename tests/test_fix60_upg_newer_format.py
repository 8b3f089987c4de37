"""A data dir written by a newer version is refused before anything is written (review rev-upgrade D3): its format
number in the catalog, its vector layout or a store's own version newer than this code knows. An older or missing
one opens and is migrated as before, and the start records this code's format."""

from __future__ import annotations

import gc
import hashlib
import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreUnavailable
from rag_core.facade.data_format import DATA_FORMAT
from rag_core.insights.log import STORE_VERSION


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "store"
    assistant = fake_assistant(store)
    assistant.ensure_samples()
    assistant.insight_log.close()  # the insights store made
    assistant.catalog.close()
    del assistant
    gc.collect()
    return store


def _files(store: Path) -> dict[str, str]:
    """Every file's bytes but SQLite's shared-memory and log files (a reader may touch those)."""
    return {str(p.relative_to(store)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(store.rglob("*")) if p.is_file() and not p.name.endswith(("-shm", "-wal"))}


def _meta(store: Path, key: str, value: str | None) -> None:
    con = sqlite3.connect(store / "catalog.sqlite3")
    if value is None:
        con.execute("DELETE FROM meta WHERE key = ?", (key,))
    else:
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
    con.commit()
    con.close()


def _get(store: Path, key: str) -> str | None:
    con = sqlite3.connect(store / "catalog.sqlite3")
    try:
        row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None
    finally:
        con.close()


@pytest.mark.parametrize("change", ["format", "layout", "insights"])
def test_a_newer_data_dir_is_refused_and_left_as_it_is(tmp_path: Path, change: str) -> None:
    store = _store(tmp_path)
    assert _get(store, "data_format") == str(DATA_FORMAT)
    if change == "format":
        _meta(store, "data_format", str(DATA_FORMAT + 1))
    elif change == "layout":
        _meta(store, "vector_layout", "audience-partitions-2")
    else:
        con = sqlite3.connect(store / "insights.sqlite3")
        con.execute(f"PRAGMA user_version = {STORE_VERSION + 1}")
        con.commit()
        con.close()
    before = _files(store)
    with pytest.raises(StoreUnavailable, match="较新版本") as refused:
        fake_assistant(store)
    assert "\n" not in str(refused.value) and "没有改动任何文件" in str(refused.value)
    assert _files(store) == before


def test_an_older_data_dir_is_migrated_and_marked(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _meta(store, "data_format", None)  # before the format was kept
    _meta(store, "vector_layout", None)  # before layouts were kept (and a restored backup's mark): rebuilt
    assistant = fake_assistant(store)
    assert _get(store, "data_format") == str(DATA_FORMAT)
    assert assistant.catalog.get_meta("vector_layout")
    assert assistant.search("年假有几天？").hits
