"""Maintenance actions: backup, restore, doctor, and opening the vector store safely.

The work is in `rag_core.storage` (plain files and SQLite, no models), so
`doctor` and `restore` also run on a data dir the assistant cannot open: the CLI
calls the class-level methods without constructing an `Assistant`.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from ..accounts.audit import AuditLog
from ..documents.write_lock import WriterLock
from ..errors import PermissionDenied, RagError, SettingsError, StoreBusy, StoreDamaged
from ..insights.export import to_csv
from ..search.disk_full import disk_full
from ..settings import SAVED_FILE, Settings
from ..storage.account_files import AUDIT, damaged_line, no_accounts
from ..storage.backup import LINK_LEFT_OUT, VECTORS_ELSEWHERE, BackupReport, backup_data_dir, restore_data_dir
from ..storage.backup_check import NO_SUMS, is_backup
from ..storage.disk_space import full_line, out_of_space
from ..storage.empty_stores import cut_state, truncated
from ..storage.health import CATALOG, CHROMA_DIR, StoreCheck, doctor, set_aside_chroma, sqlite_problem
from ..storage.open_lock import hold_open, no_app, others_open
from ..storage.saved_settings import with_saved_changes
from ..storage.sqlite_access import access_reason, busy
from ..text.inputs import InputError
from ..text.pii import redact_text
from ..types import Principal
from .access import LOCAL_ADMIN, require
from .accounts import ANONYMOUS
from .core import FacadeCore
from .data_format import KNOWN_LAYOUTS, backup_check, newer_check, newer_than_known, refuse_backup, refuse_newer
from .eval_upload import (  # noqa: F401 - SAMPLE_EVAL: its former home
    EVAL_UPLOADS,
    KEPT_UPLOADS,
    SAMPLE_EVAL,
    EvalFileAccess,
    masked_question_set,
    refuse_oversized,
    uploader_prefix,
)
from .server_doctor import server_check
from .thesaurus import thesaurus_check

_log = logging.getLogger(__name__)


class MaintenanceActions(FacadeCore):
    """Mixin of `Assistant`: backup, restore and the store doctor (permission "maintenance").

    The class-level actions (`*_data_dir`) work on a data dir no assistant has open, so they decide who
    acts from that data dir, as `_acting` does: without an actor only a desktop data dir (no account,
    none lost) is acted on as the local administrator; with accounts the caller names a logged-in
    administrator. The CLI acts as the data dir's owner and names `LOCAL_ADMIN` itself. Each backup
    and restore leaves an audit row (a refusal too), written straight to the data dir's trail.
    """

    store_notices: list[str]

    def backup(self, dest: str | Path, *, actor: Principal | None = None,
               waiting: Callable[[str], None] | None = None) -> BackupReport:
        """A consistent copy of the whole data dir into `dest`, safe while the app runs (an upload at work is waited
        for, `waiting` told once)."""
        who = self._acting(actor, "maintenance")
        target = _backup_dest(dest)
        try:
            refuse_newer(Path(self._settings.data_dir))  # a newer version wrote it since this start: not copied
            report = backup_data_dir(Path(self._settings.data_dir), target, waiting=waiting)
        except RagError as exc:
            self._audit(who, "backup", str(dest), "failed", str(exc))
            raise
        self._audit(who, "backup", report.path, "ok", _summary(report))
        return report

    def doctor(self, *, actor: Principal | None = None) -> list[StoreCheck]:
        """Every store file checked: what is wrong and the fix (nothing is changed)."""
        self._acting(actor, "maintenance")
        started = getattr(self, "_env_settings", self._settings)  # what this start applied settings.json to
        s = self._settings
        return _doctor(Path(s.data_dir), embedded_chroma=not s.chroma_host, settings=started,
                       server=(s.chroma_host, s.chroma_port) if s.chroma_host else None)

    def question_threshold_in_effect(self, *, actor: Principal | None = None) -> float:
        """The question threshold the acting person's questions meet now: the one set on the settings page, else the
        fitted model's for the chunks they may read (its small-store one below `small_store`). The page showed both
        fitted values but not which applies. Counted by the retriever's own path (an empty query reads no index)."""
        actor = self._acting(actor, "settings")
        result, *_ = self.retriever.candidates("", self._settings, reader=actor.reading(None))
        return self.decision.question_threshold_for(result.store_chunks)

    @staticmethod
    def doctor_data_dir(data_dir: str | Path, *, embedded_chroma: bool = True, server: tuple[str, int] | None = None,
                        actor: Principal | None = None) -> list[StoreCheck]:
        """`doctor` for a data dir no assistant has open (it may be too damaged to open).

        Not embedded: the Chroma server is asked too — `server` (host, port), else CHROMA_HOST/CHROMA_PORT as a
        start reads them; without it doctor never contacted the server and said 正常 with it down."""
        _acting_on(Path(data_dir), actor)
        if not embedded_chroma and server is None:
            server = _server_of(Path(data_dir))
        return _doctor(Path(data_dir), embedded_chroma=embedded_chroma, server=server)

    @staticmethod
    def table_csv(rows: Sequence[Mapping[str, Any]], headers: Mapping[str, str] | None = None) -> bytes:
        """CSV a spreadsheet opens as plain text: a file name or detail like =HYPERLINK(...) stays inert.

        Why here: pages export tables (the audit trail) with the engine's one formula guard, not their own.
        """
        return to_csv(rows, headers)

    @staticmethod
    def backup_data_dir(data_dir: str | Path, dest: str | Path, *, actor: Principal | None = None,
                        waiting: Callable[[str], None] | None = None) -> BackupReport:
        """`backup` without opening the assistant (no model load; the app may keep running)."""
        data_dir = Path(data_dir)
        who = _acting_on(data_dir, actor)
        target = _backup_dest(dest)
        try:
            refuse_backup(data_dir), refuse_newer(data_dir)  # a backup of a backup; one restore would refuse
            report = backup_data_dir(data_dir, target, waiting=waiting)
        except RagError as exc:
            _audit_row(data_dir, who, "backup", str(dest), "failed", str(exc))
            raise
        _audit_row(data_dir, who, "backup", report.path, "ok", _summary(report))
        return report

    @staticmethod
    def restore_data_dir(source: str | Path, data_dir: str | Path, *, actor: Principal | None = None,
                         allow_no_accounts: bool = False) -> BackupReport:
        """Replace `data_dir` with a verified backup (the old one is kept, renamed); refused while an app has it open.

        `allow_no_accounts`: restore a backup without accounts over a data dir with accounts (login off)."""
        data_dir = Path(data_dir)
        who = _acting_on(data_dir, actor)
        try:
            with _no_writer(data_dir), no_app(data_dir):  # an upload in progress, then any app with it open
                report = restore_data_dir(Path(source), data_dir, allow_no_accounts=allow_no_accounts,
                                          refuse_source=refuse_newer, known_layouts=KNOWN_LAYOUTS)
        except RagError as exc:
            _audit_row(data_dir, who, "restore", str(source), "failed", str(exc))
            raise
        _forget_chroma_client(data_dir / "chroma")  # a client this process held saw the replaced files
        # in the restored trail: the one the data dir goes on with (the replaced dir's is kept beside it)
        _audit_row(data_dir, who, "restore", str(source), "ok", _summary(report))
        return report

    def release_data_dir(self) -> None:
        """Let go of the data dir's open lock before this assistant is collected: a restore may then replace it
        (once no other assistant holds it). Its stores must not be used afterwards."""
        release = self.__dict__.get("_release_data_dir")
        if release is not None:
            release()

    def index_open_elsewhere(self) -> bool:
        """True when another process (the app) has this data dir open with embedded Chroma.

        Embedded Chroma keeps its index in memory per process: a document a CLI command writes (or deletes) is not
        found (or still found) by the running app's vector search until it restarts, though its count says
        otherwise. With a Chroma server every process reads the same index: False. False too where no lock
        can tell (no flock)."""
        if self._settings.chroma_host:
            return False
        return others_open(Path(self._settings.data_dir))

    @contextmanager
    def _holding_data_dir(self, data_dir: Path) -> Iterator[None]:
        """The data dir's open lock (`open_lock`) for this assistant's lifetime, taken before a start opens any store
        or loads the model: a restore then refuses instead of swapping the files under it (taken at `_open_vectors`,
        a restore during the model load left the start on the moved-aside catalog). A failed start lets go at once."""
        self._release_data_dir = hold_open(self, data_dir)
        try:
            yield
        except BaseException:
            self.__dict__.pop("_release_data_dir", lambda: None)()
            raise

    def _open_vectors(self):
        """Chroma for this store; an embedded one that fails to open is a cache: set aside, rebuilt. The data dir's
        open lock is held (`_holding_data_dir`), or taken here for this assistant's lifetime."""
        from ..search.vector_store import ChromaVectorStore

        s = self._settings
        if "_release_data_dir" not in self.__dict__:
            self._release_data_dir = hold_open(self, Path(s.data_dir))

        def attempt() -> ChromaVectorStore:
            return ChromaVectorStore(
                path=s.path("chroma"), host=s.chroma_host, port=s.chroma_port,
                model_id=self.embedder.model_id, name=f"policy_chunks_{self._store_id()}",
            )

        if s.chroma_host:
            return attempt()
        str(s.path("chroma")).encode("utf-8")  # UnicodeError: Chroma cannot open a path not UTF-8; no damage, not moved
        if any(note.startswith("chroma/") for note in self.store_notices):
            _forget_chroma_client(s.path("chroma"))  # this process may still hold the set-aside directory
        try:
            store = attempt()
            store.count()
            return store
        except BaseException as exc:  # a garbled HNSW segment or database (Rust panics are BaseException)
            if isinstance(exc, KeyboardInterrupt | SystemExit | UnicodeError):  # a path not UTF-8 is no damage
                raise
            _forget_chroma_client(s.path("chroma"))
            if disk_full(exc) or out_of_space(exc, Path(s.data_dir)):  # healthy, the disk is full: nothing moved
                _log.warning("chroma/ not opened, disk full: %s: %s", type(exc).__name__, exc)
                raise StoreDamaged(full_line(f"{CHROMA_DIR}/")) from exc
            self.store_notices.append(self._chroma_aside(f"{type(exc).__name__}: {exc}"))
            return attempt()

    def _chroma_aside(self, reason: str) -> str:
        """`set_aside_chroma` with this assistant's own hold let go for it (held, it could never be alone), and
        taken again after: moved only while no other assistant, here or in another process, has the data dir open."""
        data_dir = Path(self._settings.data_dir)
        self.__dict__.pop("_release_data_dir")()
        try:
            return set_aside_chroma(data_dir, reason)
        finally:
            self._release_data_dir = hold_open(self, data_dir)


def _backup_dest(dest: str | Path) -> Path:
    """The backup directory, or InputError for a blank one (both backups refuse it, the same way).

    Path("") is "." and Path("   ") a folder named three spaces: a blank box or `backup ""` copied the store,
    password hashes included, into (or beside) whatever directory the app was started in."""
    if not str(dest).strip():
        raise InputError("请给出备份目录（例如 /backups/hr-今天的日期），它应当还不存在")
    return Path(str(dest).strip())  # " /backups/x" pasted with a space is /backups/x, not a folder under the working one


WRITE_LOCK = ".catalog.write-lock"  # the catalog's writer lock (documents.catalog: `Catalog.writer`), beside it
WRITING = "应用正在写入，请稍后再恢复或先停止应用"


@contextmanager
def _no_writer(data_dir: Path) -> Iterator[None]:
    """Hold the data dir's writer lock for the whole swap, or refuse in one line while the app writes.

    A restore in the middle of an upload replaced the files under the app's open connections: the upload
    failed with Chroma's English "attempt to write a readonly database" and the audit was called damaged."""
    with ExitStack() as stack:
        if data_dir.is_dir():
            try:
                taken = stack.enter_context(WriterLock(data_dir / WRITE_LOCK).try_hold())
            except OSError:  # the lock file cannot be made (a read-only data dir): no app writes there either
                taken = True
            if not taken:
                raise StoreBusy(f"数据目录 {data_dir}：{WRITING}。数据目录没有改动")
        yield


def _acting_on(data_dir: Path, actor: Principal | None) -> Principal:
    """`Assistant._acting` for a data dir no assistant has open: PermissionDenied (and a refused row) unless
    an administrator acts, or nobody is named on a desktop data dir."""
    try:
        if actor is None and not no_accounts(data_dir):
            raise PermissionDenied("请先登录")
        return require(actor or LOCAL_ADMIN, "maintenance")
    except PermissionDenied as exc:
        _audit_row(data_dir, actor or ANONYMOUS, "refused", "maintenance", "refused", str(exc))
        raise


def _audit_row(data_dir: Path, actor: Principal, action: str, target: str, outcome: str, detail: str = "") -> None:
    """One row in `data_dir`'s audit trail, as `AccountActions._audit` writes it, for the class-level actions. Only in a
    data dir (one with a catalog or a trail: a mistyped path gets no new file); never raising."""
    if not ((data_dir / CATALOG).is_file() or (data_dir / AUDIT).is_file()) or newer_than_known(data_dir) or \
            is_backup(data_dir):  # a backup: a row in it broke its digests, so restore refused it (375 #1)
        return  # not a data dir, one a newer version wrote, or a backup: nothing is written into it
    if (data_dir / AUDIT).exists() and (problem := _trail_problem(data_dir / AUDIT)):
        # written into, a cut or damaged trail read as healthy and the next start no longer said it was lost
        _log.warning("audit row not written (%s %s %s): %s %s", actor.user, action, outcome, AUDIT, problem)
        return
    try:
        AuditLog(data_dir / AUDIT).record(actor.user, actor.role, action, redact_text(target), outcome,
                                          redact_text(detail))
    except (sqlite3.Error, OSError, RagError) as exc:  # as the app says it; RagError: a folder in its place (review 338)
        said = exc if isinstance(exc, RagError) else damaged_line(AUDIT, exc)
        _log.warning("audit row not written (%s %s %s): %s", actor.user, action, outcome, said)


def _trail_problem(audit: Path) -> str | None:
    """Why the audit trail must not be written (cut shorter than SQLite's header, or damaged), or None.

    SQLite writes a new schema into a 0-byte file: a backup's row made a cut trail look new, no word ever after."""
    if truncated(audit):
        return cut_state(audit.stat().st_size)
    problem = sqlite_problem(audit)
    return None if problem is None or access_reason(problem) or busy(problem) else problem  # those: AuditLog says


def _summary(report: BackupReport) -> str:
    links = [n for n in report.notices if LINK_LEFT_OUT in n]
    unchecked = [n for n in report.notices if n.startswith(NO_SUMS)]  # restore of an older backup
    damaged = [n for n in report.notices if not n.startswith(VECTORS_ELSEWHERE) and n not in links + unchecked  # a
               and not any(name in n for name in report.left_out)]  # server's vectors: no damage; stores named (378 #7)
    left_out = (f"；{len(damaged)} 个损坏的缓存未放进备份" if damaged else "") + (
        f"；损坏的 {'、'.join(report.left_out)} 未放进备份" if report.left_out else "")
    left_out += "；较早版本的备份，数据库以外的文件未能核对" if unchecked else ""
    left_out += f"；{len(links)} 个符号链接未放进备份" if links else ""
    return f"{report.documents} 份文档、{report.chunks} 块、{report.memories} 条记忆，共 {len(report.files)} 个文件{left_out}"


def _forget_chroma_client(path: Path) -> None:
    """Drop this path's cached Chroma system (Chroma shares one per directory and process), only this one."""
    from chromadb.api.client import SharedSystemClient

    for key in {str(path), str(Path(path).resolve())}:
        SharedSystemClient._identifier_to_system.pop(key, None)
        SharedSystemClient._identifier_to_refcount.pop(key, None)


class EvalFiles(EvalFileAccess):
    """Mixin of `Assistant`: the question sets the retrieval test page opens (`EvalFileAccess`) and uploads."""

    def save_eval_upload(self, filename: str, data: bytes, *, actor: Principal | None = None) -> Path:
        """Keep an uploaded question set under `<data dir>/eval_uploads/` and return its path: a new file of the
        uploader's own each time (`uploader_prefix`, a random part, the name), their oldest beyond `KEPT_UPLOADS`
        deleted.

        The questions and the name are masked before they reach the disk (`masked_question_set`); a set too large
        to run is refused first, with nothing masked or written (`refuse_oversized`)."""
        from ..documents.parsing import safe_filename

        actor = self._acting(actor, "retrieval.test")
        refuse_oversized(bytes(data))  # before masking and writing: 50,000 rows took 22 s and stayed on disk
        name = safe_filename(filename, mask=redact_text)
        if not name.endswith((".jsonl", ".json")):
            name += ".jsonl"
        folder = Path(self._settings.data_dir) / EVAL_UPLOADS
        folder.mkdir(parents=True, exist_ok=True)
        prefix = uploader_prefix(actor.user)
        target = folder / f"{prefix}{secrets.token_hex(4)}-{name}"
        target.write_bytes(masked_question_set(bytes(data)))
        mine = sorted((p for p in folder.glob(f"{prefix}*") if p.is_file() and p != target),
                      key=lambda p: p.stat().st_mtime)
        for old in mine[:max(0, len(mine) - (KEPT_UPLOADS - 1))]:
            old.unlink(missing_ok=True)
        return target


def _doctor(data_dir: Path, *, embedded_chroma: bool, settings: Settings | None = None,
            server: tuple[str, int] | None = None) -> list[StoreCheck]:
    """The stores' checks, then HR's thesaurus file (not a store, but a damaged one leaves entries unused),
    the settings page's saved changes (a damaged file is ignored at start, with a warning) and, with `server`
    (host, port), the Chroma server: reachable, and holding this store's collections (`server_check`).

    `settings`: the environment and .env the saved changes apply to (None: read them as a start would)."""
    checks = doctor(data_dir, embedded_chroma=embedded_chroma, timezone=_office_zone(data_dir, settings))
    if not data_dir.is_dir():
        return checks
    extra = [thesaurus_check(data_dir), _settings_check(data_dir, settings),
             server_check(data_dir, *server) if server else None]
    return [check for check in (backup_check(data_dir), newer_check(data_dir), *checks, *extra) if check is not None]


def _office_zone(data_dir: Path, settings: Settings | None) -> str | None:
    """The office's time zone effective dates are days of: the started settings', else as a start reads it (None:
    the default, when the environment is refused — doctor says so on its own line)."""
    if settings is not None:
        return settings.timezone
    try:
        return Settings.from_env(data_dir=data_dir).timezone
    except SettingsError:
        return None


def _server_of(data_dir: Path) -> tuple[str, int] | None:
    """CHROMA_HOST and CHROMA_PORT as a start reads them (environment, .env); None when none is set."""
    try:
        s = Settings.from_env(data_dir=data_dir)
    except SettingsError:  # the start refuses the environment and says so; there is no server to name
        return None
    return (s.chroma_host, s.chroma_port) if s.chroma_host else None


def _settings_check(data_dir: Path, settings: Settings | None = None) -> StoreCheck | None:
    """`settings.json` read as a start reads it (`with_saved_changes`): the start's notice, or ok; None when absent.
    Applied to the environment and .env the app runs with, not the defaults ({"chunk_overlap": 300} with
    RAG_CHUNK_SIZE=800 starts fine, and doctor called it no longer accepted)."""
    if not (data_dir / SAVED_FILE).exists():
        return None
    if settings is None:
        try:
            settings = Settings.from_env(data_dir=data_dir)
        except SettingsError:  # the environment itself is refused (the start says so): the saved file alone
            settings = Settings(data_dir=data_dir)
    _, notice, _ = with_saved_changes(settings)
    if not notice:
        return StoreCheck(SAVED_FILE, "ok")
    status = "damaged" if "无法读取" in notice else "inconsistent"  # unreadable, or knobs no longer accepted
    return StoreCheck(SAVED_FILE, status, redact_text(notice.removeprefix(SAVED_FILE)))  # its fix is in the notice
