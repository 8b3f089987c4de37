"""What every part of the facade stands on: who acts, the audit trail, the store's id.

Each action mixin of `Assistant` inherits `FacadeCore`, so checking the acting `Principal` (`_acting`) and
writing an audit row (`_audit`) are methods of its own base class: no part reaches another part's private
method, and no part depends on the order the mixins are listed in (`tests/test_layers.py` keeps it so).
The account and audit stores open here on first use (`accounts.sqlite3`, `audit.sqlite3`): `_acting` reads
the one and `_audit` writes the other; managing accounts stays in `facade/accounts.py`.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..accounts.audit import AuditLog
from ..accounts.store import AccountStore
from ..documents.audience_names import audience_label
from ..errors import PermissionDenied, StoreBusy, StoreDamaged
from ..storage.account_files import ACCOUNTS, AUDIT, damaged_line, lost_accounts_line
from ..storage.sqlite_access import is_busy
from ..text.pii import redact_text
from ..types import Principal
from .access import LOCAL_ADMIN, as_it_stands, require
from .attempts import refusal_row

ANONYMOUS = Principal(user="（未登录）", role="")
_OPENING = threading.RLock()  # lazy opening of the account and audit stores
_log = logging.getLogger(__name__)


@contextmanager
def damage_named(file: str) -> Iterator[None]:
    """SQLite's damage errors inside the block become `StoreDamaged` with the file's one line."""
    try:
        yield
    except sqlite3.DatabaseError as exc:  # "file is not a database", "database disk image is malformed"
        if is_busy(exc):  # another process holds it: not damage, say so
            raise StoreBusy(f"{file} 正被另一个进程占用，请稍后再试") from exc
        raise StoreDamaged(damaged_line(file, exc)) from exc


def _relabel_stored(store: AccountStore) -> None:
    """The one-off rewrite of audiences an older version stored as typed, at opening and never on a read path: a
    compare-and-set that skips a busy file (`AccountStore.relabel_stored`). Reads need none of it, so nothing fails."""
    try:
        if count := store.relabel_stored():
            _log.info("%s: %d account(s) audiences rewritten as their labels", ACCOUNTS, count)
    except sqlite3.Error as exc:  # damage shows at the first read, as before
        _log.warning("%s: audiences not rewritten as their labels: %s", ACCOUNTS, exc)


class FacadeCore:
    """The base of every action mixin: the stores and settings `Assistant` opens, and the checks all share."""

    _settings: Any  # the settings in force (`Assistant._start`)
    catalog: Any
    store_notices: list[str]
    _accounts: AccountStore | None = None
    _audit_log: AuditLog | None = None
    _local_admin_process: bool = False
    _accounts_lost: str = ""  # the lost-accounts line read when the store was opened ("" : nothing lost)

    @property
    def accounts(self) -> AccountStore:
        """The account store; `StoreDamaged` when it is damaged, or lost in a data dir used with accounts."""
        if self._accounts is None:
            with _OPENING:  # two first requests at once must share one store, not race to create it
                if self._accounts is None:
                    # read before opening (opening creates an empty file), once per opened store: the
                    # audit trail only grows, and a file that failed to open is read again next time. A busy
                    # account or audit file is no verdict: StoreBusy leaves nothing kept, the next action reads again
                    data_dir = Path(self._settings.data_dir)
                    lost = lost_accounts_line(data_dir) or ""
                    with damage_named(ACCOUNTS):  # audiences an older version stored as typed read as their labels
                        store = AccountStore(self._settings.path(ACCOUNTS), label=audience_label)
                    _relabel_stored(store)
                    self._accounts_lost = lost  # before the store shows: another thread must not skip the check
                    self._accounts = store
        with damage_named(ACCOUNTS):
            if self._local_admin_process or self._accounts.has_accounts():
                return self._accounts
        if self._accounts_lost:  # never "no account yet, so no login": refused until restored
            raise StoreDamaged(self._accounts_lost)
        return self._accounts

    @property
    def audit_log(self) -> AuditLog:
        if self._audit_log is None:
            with _OPENING:
                if self._audit_log is None:
                    with damage_named(AUDIT):
                        self._audit_log = AuditLog(self._settings.path(AUDIT))
        return self._audit_log

    def _audit(self, actor: Principal | None, action: str, target: str = "", outcome: str = "ok", detail: str = "") -> None:
        """Append one audit row. Never raises for a damaged trail: the action it records has already
        happened (or been refused), and its result stands; the damage is said in the store notices."""
        who = actor or ANONYMOUS
        try:
            with damage_named(AUDIT):
                # file names and details may carry personal data (张三_13812345678.md): masked like everything stored
                self.audit_log.record(who.user, who.role, action, redact_text(target), outcome, redact_text(detail))
        except StoreDamaged as exc:
            _log.warning("audit row not written (%s %s %s): %s", who.user, action, outcome, exc)
            if str(exc) not in self.store_notices:
                self.store_notices.append(str(exc))

    # -- who acts --------------------------------------------------------------
    def _default_actor(self) -> Principal:
        """The person acting when a caller names nobody: the local administrator on the desktop default.

        Once any account exists (team mode) nobody is assumed: the caller must name a logged-in
        principal. The CLI process is the exception: it acts as the data dir's owner.
        """
        if self._local_admin_process or not self.accounts.has_accounts():
            return LOCAL_ADMIN
        raise PermissionDenied("请先登录")

    def _acting(self, actor: Principal | None, permission: str, attempt: str = "", target: str = "") -> Principal:
        """Resolve and check the acting person; raises `PermissionDenied` (nothing read or changed; one audit row
        naming `attempt`, by default the calling method, and its `target`: `attempts.refusal_row`)."""
        try:
            return require(as_it_stands(lambda: self.accounts, actor, local_admin_process=self._local_admin_process)
                           if actor is not None else self._default_actor(), permission)
        except PermissionDenied as exc:
            attempt = attempt or sys._getframe(1).f_code.co_name  # every caller named, none has to pass it
            target, detail = refusal_row(permission, attempt, target, str(exc))
            self._audit(actor or ANONYMOUS, "refused", target, "refused", detail)
            raise

    def _store_id(self) -> str:
        """A per-catalog id, so several stores can share one Chroma server without collisions.

        Made once, in one write transaction that keeps an id another process made first: two replicas
        opening a fresh data dir at once each made their own (read, then write) and wrote two collections."""
        store_id = self.catalog.get_meta("store_id")
        if not store_id:
            import uuid

            with self.catalog.transaction() as db:  # BEGIN IMMEDIATE: the other replica's id, or none yet
                db.execute("INSERT INTO meta VALUES ('store_id', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value "
                           "WHERE value = ''", (uuid.uuid4().hex[:12],))
                store_id = db.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()[0]
        return store_id
