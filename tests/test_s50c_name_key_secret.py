"""The file-name key secret is created once per store, even by two processes starting together.

Made by read-then-write, two processes that both found no secret each wrote their own: the keys one
stored no longer matched the other's, so a re-upload of the same file looked like a different file.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rag_core.documents.catalog import Catalog
from rag_core.documents.name_keys import SECRET_META, NameKeys

NAME = "13812345678_加班审批.md"


def test_two_stores_racing_on_a_fresh_catalog_agree_on_one_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both read "no secret" before either writes (forced by a barrier): they still end with one secret."""
    path = tmp_path / "data" / "catalog.sqlite3"
    first, second = Catalog(path), Catalog(path)  # two connections, as two processes have
    both_read = threading.Barrier(2, timeout=10)
    get_meta = Catalog.get_meta

    def racing_get_meta(self: Catalog, key: str) -> str | None:
        value = get_meta(self, key)
        if key == SECRET_META and value is None:
            both_read.wait()  # neither writes before the other has seen the secret missing
        return value

    monkeypatch.setattr(Catalog, "get_meta", racing_get_meta)
    keys: dict[str, str] = {}
    errors: list[BaseException] = []

    def make_key(label: str, catalog: Catalog) -> None:
        try:
            keys[label] = NameKeys(catalog).key(NAME)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=make_key, args=(label, catalog)) for label, catalog in
               (("first", first), ("second", second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    monkeypatch.undo()
    assert not errors
    later = Catalog(path)
    try:
        assert keys["first"] == keys["second"] == NameKeys(later).key(NAME)
        assert later.get_meta(SECRET_META) == first.get_meta(SECRET_META) == second.get_meta(SECRET_META)
    finally:
        for catalog in (first, second, later):
            catalog.close()


def test_an_existing_secret_is_kept(tmp_path: Path) -> None:
    """A store that has a secret keeps it: keys written before stay valid."""
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    try:
        catalog.set_meta(SECRET_META, "ab" * 32)
        key = NameKeys(catalog).key(NAME)
        assert catalog.get_meta(SECRET_META) == "ab" * 32
        assert key == NameKeys(catalog).key(NAME) and key != NameKeys(catalog).key("13987654321_加班审批.md")
    finally:
        catalog.close()
