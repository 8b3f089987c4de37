"""Two replicas opening a fresh data dir at once share one store_id (review 52q2 #2).

`_store_id` read the meta row, then wrote its own id with no transaction: a replica that read "none"
just before the other wrote its id overwrote it, and the two wrote to different Chroma collections.
The race is replayed deterministically: the other replica's id lands between this one's read and write.
Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fakes import fake_assistant

from rag_core.documents.catalog import Catalog

OTHER = "b0b0b0b0b0b0"


def test_an_id_another_replica_made_meanwhile_is_kept(tmp_path: Path, monkeypatch) -> None:
    data_dir = tmp_path / "store"
    real = Catalog.get_meta
    raced: list[str] = []

    def read_then_the_other_replica_writes(self: Catalog, key: str) -> str | None:
        value = real(self, key)
        if key == "store_id" and not raced:
            raced.append(key)
            other = sqlite3.connect(str(data_dir / "catalog.sqlite3"))
            other.execute("INSERT OR REPLACE INTO meta VALUES ('store_id', ?)", (OTHER,))
            other.commit()
            other.close()
        return value

    monkeypatch.setattr(Catalog, "get_meta", read_then_the_other_replica_writes)
    assistant = fake_assistant(data_dir)
    assert raced
    assert assistant.vectors.name == f"policy_chunks_{OTHER}"
    assert real(assistant.catalog, "store_id") == OTHER


def test_a_blank_store_id_is_replaced(tmp_path: Path) -> None:
    first = fake_assistant(tmp_path / "store")
    first.catalog.set_meta("store_id", "")
    made = first._store_id()
    assert made and first.catalog.get_meta("store_id") == made and first._store_id() == made
