"""Which uploaded file each document's versions came from, without keeping its name.

The stored name is masked and cut to 120 characters, so two different files (13812345678_加班审批.md and
13987654321_加班审批.md) can be stored under one name and one doc id; comparing stored names made the
second silently retire the first. Each version's original name is kept as a keyed hash (HMAC-SHA256 with
a secret made once per store, in the catalog's meta table): equal names give equal keys, and the key
says nothing about the name to someone without the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

from .catalog import Catalog

SECRET_META = "name_key_secret"
KEYS_META = "name_keys:"  # + doc id -> JSON list of the keys of the files its versions came from


class NameKeys:
    """The per-store keyed hashes of original file names, per document."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def key(self, original: str) -> str:
        """The keyed hash of one original (unmasked, uncut) file name."""
        secret = self.catalog.get_meta(SECRET_META) or self._create_secret()
        return hmac.new(bytes.fromhex(secret), original.encode("utf-8"), hashlib.sha256).hexdigest()

    def _create_secret(self) -> str:
        """Insert a secret unless one is there, then read the one that is: compare-and-set under the write
        lock, so two processes starting at once end with one secret (read-then-write left each its own)."""
        with self.catalog.transaction() as db:
            db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value "
                       "WHERE meta.value = ''", (SECRET_META, secrets.token_hex(32)))  # an empty one is none
            return db.execute("SELECT value FROM meta WHERE key=?", (SECRET_META,)).fetchone()[0]

    def of(self, doc_id: str) -> set[str]:
        """The keys of the files `doc_id`'s versions came from (empty for versions from before the keys)."""
        try:
            return set(json.loads(self.catalog.get_meta(KEYS_META + doc_id) or "[]"))
        except (ValueError, TypeError):
            return set()

    def add(self, doc_id: str, key: str) -> None:
        if key and key not in (known := self.of(doc_id)):
            self.catalog.set_meta(KEYS_META + doc_id, json.dumps(sorted(known | {key})))

    def forget(self, doc_id: str) -> None:
        """The document is deleted: a new file may take its id again."""
        self.catalog.set_meta(KEYS_META + doc_id, "[]")
