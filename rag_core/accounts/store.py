"""Accounts, lockout and sessions in one SQLite file.

Why server-side sessions behind a signed token: the signature lets a forged or
truncated cookie be refused without a database read, and the row lets an
administrator end a session (disable, password reset, logout) at once.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..errors import AccountError
from ..storage.new_store import create_store
from ..types import ROLE_NAMES, ROLES, Account
from .audiences import Label, read_labels, relabels
from .audiences import checked as _audiences  # by this name in `facade.upload_input` too
from .emails import EmailColumn, check_email, taken
from .names import check_name, is_reserved, name_keys, refuse_lookalike
from .passwords import check_password
from .transaction import one_write, write_or_skip

MAX_FAILURES = 5  # consecutive wrong passwords before the account locks
LOCK_MINUTES = 15
SESSION_HOURS = 12
# what `open_session` hands out: a token_urlsafe(24) id, a dot, 32 hex digits of signature. Anything else (a cookie
# another app on the host set, non-ASCII text) is no session, refused before it is signed or compared
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}\.[0-9a-f]{32}")
# one answer for a wrong name, a wrong password and a locked account (SECURITY.md): telling them apart names real accounts
WRONG_LOGIN = (f"用户名或密码不正确。同一账户连续输错 {MAX_FAILURES} 次会锁定 {LOCK_MINUTES} 分钟：请核对后重试；"
               "若已锁定，请稍后再试或请管理员重置密码")
LOCKED_NOTE = f"连续 {MAX_FAILURES} 次密码错误，账户已锁定 {LOCK_MINUTES} 分钟"
# told only to a person already logged in (the own-password form): their name is no secret to them, and the vague
# login answer called their right current password wrong
OWN_LOCKED = f"账户因多次输错密码已临时锁定，请 {LOCK_MINUTES} 分钟后再试或请管理员重置密码"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    audiences TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    locked_until TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users (email) WHERE email != '';
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class LoginResult:
    """outcome: ok, wrong (password or unknown name), locked (now or still), disabled."""

    outcome: str
    account: Account | None = None
    just_locked: bool = False

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    @property
    def message(self) -> str:
        """What the person is told. A lock is not named: an unknown name never locks, so "locked" would
        tell a guesser which names are real; the one answer says that locks exist instead."""
        return {"ok": "登录成功", "disabled": "该账户已停用，请联系管理员"}.get(self.outcome, WRONG_LOGIN)

    @property
    def audit_detail(self) -> str:
        """What the audit trail records (for the administrator, who may see that an account locked)."""
        if self.outcome == "locked":
            return LOCKED_NOTE if self.just_locked else "账户锁定期间尝试登录"
        return "" if self.ok else {"wrong": "用户名或密码不正确"}.get(self.outcome, self.message)


# argon2id's costs: the library's defaults (RFC 9106's low-memory choice: 64 MiB, 3 passes, about 0.1 s a
# hash here). Only the test suite lowers them (tests/conftest.py), for the same algorithm and code path at about
# a millisecond: 91 accounts made by three test files cost 9.4 s of their 23.
HASH_PARAMETERS: dict[str, int] = {}


class AccountStore(EmailColumn):
    """Thread-safe; one connection guarded by a lock (a handful of people, rare writes)."""

    def __init__(self, path: Path, label: Label | None = None):
        """`label`: what a stored audience reads as, in every account read (`accounts.audiences`); None: as stored."""
        self.path = Path(path)
        self._label = label
        self.path.parent.mkdir(parents=True, exist_ok=True)
        create_store(self.path, _SCHEMA, mode=0o600)  # whole or not at all: a 0-byte file read as lost accounts
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.executescript(_SCHEMA)
        try:  # one account per address whatever its case (Li@Example.com is li@example.com)
            self._db.execute("CREATE UNIQUE INDEX IF NOT EXISTS users_email_nocase ON users (lower(email)) WHERE email != ''")
        except sqlite3.IntegrityError:  # an older store already holds such a pair: by_email refuses it
            pass
        self._lock = threading.Lock()
        self._hasher = PasswordHasher(**HASH_PARAMETERS)
        self._dummy: str | None = None  # a hash to verify against for unknown names (equal work)
        self._any = False
        row = self._db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
        if row is None:
            secret = secrets.token_hex(32)
            with self._write():  # OR IGNORE: another process or thread opening the same new file may have written it first
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('secret', ?)", (secret,))
            row = self._db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
        self._secret = bytes.fromhex(row[0])
        try:
            self.path.chmod(0o600)
        except OSError:
            pass

    # -- accounts ------------------------------------------------------------------
    def has_accounts(self) -> bool:
        """True once any account exists (disabled ones count): team mode from then on."""
        if not self._any:
            with self._lock:
                self._any = self._db.execute("SELECT 1 FROM users LIMIT 1").fetchone() is not None
        return self._any

    def _account(self, row) -> Account:
        return Account(
            name=row[0], role=row[1], audiences=read_labels(row[2], self._label), email=row[3],
            disabled=bool(row[4]), failed_logins=int(row[5]), locked_until=row[6], created_at=row[7],
        )

    _COLS = "name, role, audiences, email, disabled, failed, locked_until, created_at"

    def get(self, name: str) -> Account | None:
        with self._lock:
            row = self._db.execute(f"SELECT {self._COLS} FROM users WHERE name = ?", (name,)).fetchone()
        return self._account(row) if row else None

    def resolve(self, typed: str) -> str | None:
        """The stored name `typed` means: itself, else the one account whose name reads the same (`name_keys`), else
        None (none, or two in an older store). Why: names are unique by that key, so an account made as ａｌｉｃｅ or
        Alice refuses a new alice, and logging in as alice must reach it, not answer 用户名或密码不正确."""
        if not (typed := (typed or "").strip()):
            return None
        with self._lock:
            if self._db.execute("SELECT 1 FROM users WHERE name = ?", (typed,)).fetchone():
                return typed
            names = [row[0] for row in self._db.execute("SELECT name FROM users")]
        keys = name_keys(typed)
        matches = [other for other in names if not keys.isdisjoint(name_keys(other))]
        return matches[0] if len(matches) == 1 else None

    def list(self) -> list[Account]:
        with self._lock:
            rows = self._db.execute(f"SELECT {self._COLS} FROM users ORDER BY name").fetchall()
        return [self._account(r) for r in rows]

    def add(self, name: str, role: str, password: str, audiences: Iterable[str] = (), email: str = "") -> Account:
        """A new account; a name that reads as an existing one (Admin, ＡＤＭＩＮ, аdmin beside admin) is refused."""
        name = check_name(name)
        if role not in ROLES:
            raise AccountError(f"未知角色：{role}（可选：{'、'.join(f'{r}（{ROLE_NAMES[r]}）' for r in ROLES)}）")
        labels = _audiences(audiences)
        email = check_email(email)
        if email and (holders := self.names_with_email(email)):
            raise taken(holders, email)
        digest = self._hasher.hash(check_password(password, name))
        try:
            with self._write():  # the look-alike and address checks and the insert in one write: no process between
                refuse_lookalike(name, (row[0] for row in self._db.execute("SELECT name FROM users")))
                if email and (holders := self._holders(email)):  # taken meanwhile, or in a case lower() misses
                    raise taken(holders, email)
                self._db.execute(
                    "INSERT INTO users (name, role, audiences, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (name, role, ",".join(labels), email, digest, _iso(_now())),
                )
        except sqlite3.IntegrityError as exc:
            raise AccountError(f"用户“{name}”或邮箱已存在") from exc
        self._any = True
        return self.get(name)  # type: ignore[return-value]

    def _write(self):
        """Every write's one transaction (`transaction.one_write`: write lock first, rolled back on any error)."""
        return one_write(self._db, self._lock)

    def _update(self, name: str, sql: str, params: tuple, *, leaves_admin: bool = False,
                ends_sessions: bool | tuple[str, tuple] = False, keep: str | None = None) -> Account:
        """`leaves_admin`: the change ends `name`'s administration, refused if no other active admin remains.
        `ends_sessions`: `name`'s sessions (but `keep`'s) end in the same transaction, so a busy file cannot
        save the change and keep the sessions it should have ended; a (condition, parameters) pair: only when the
        row met it before the change (a role saved unchanged logs nobody out)."""
        # checked and written in one write transaction: two admins (or two app processes on one file)
        # cannot demote each other at once; the second waits for the first's write, then sees it
        with self._write():
            if leaves_admin and self._last_active_admin(name):
                raise AccountError(f"“{name}”是最后一位在用的管理员：不能停用或改为其他角色，否则没有人能管理账户。"
                                   "请先把另一个账户设为管理员。")
            if isinstance(ends_sessions, tuple):
                condition, values = ends_sessions
                ends_sessions = self._db.execute(f"SELECT 1 FROM users WHERE name = ? AND ({condition})",
                                                 (name, *values)).fetchone() is not None
            changed = self._db.execute(f"UPDATE users SET {sql} WHERE name = ?", (*params, name)).rowcount
            if ends_sessions:
                self._db.execute("DELETE FROM sessions WHERE user = ? AND id != ?", (name, self._kept(keep)))
        if not changed:
            raise AccountError(f"找不到用户：{name}")
        return self.get(name)  # type: ignore[return-value]

    def _last_active_admin(self, name: str) -> bool:
        """True when `name` is the one enabled admin that can log in: one under a reserved name (made before the
        names were reserved) never can (`authenticate`), so it manages nothing."""
        admins = [row[0] for row in self._db.execute("SELECT name FROM users WHERE role = 'admin' AND disabled = 0")]
        return [admin for admin in admins if not is_reserved(admin)] == [name]

    def set_disabled(self, name: str, disabled: bool = True) -> Account:
        return self._update(name, "disabled = ?", (int(disabled),), leaves_admin=disabled, ends_sessions=disabled)

    def set_role(self, name: str, role: str, audiences: Iterable[str] = ()) -> Account:
        if role not in ROLES:
            raise AccountError(f"未知角色：{role}")
        # a changed role or audience ends the sessions: it takes effect at the next login; an unchanged one ends none
        labels = ",".join(_audiences(audiences))
        return self._update(name, "role = ?, audiences = ?", (role, labels), leaves_admin=role != "admin",
                            ends_sessions=("role != ? OR audiences != ?", (role, labels)))

    def relabel_stored(self, read: Iterable[tuple[str, str]] | None = None) -> int:
        """Rewrite audiences an older version stored as typed (Managers, 管理者) as their labels, once, at opening; how
        many accounts it rewrote. Every read reads them so already (`label`): this only tidies the file. A compare-and-set
        on the value read (`read`: (name, audiences) rows, by default read now), so a change made since stands; never
        waiting (`write_or_skip`): a file another process holds is left as it is, for a later opening."""
        if read is None:
            with self._lock:
                read = self._db.execute("SELECT name, audiences FROM users").fetchall()
        if not (changes := relabels(read, self._label)):
            return 0
        try:
            with write_or_skip(self._db, self._lock):
                return sum(self._db.execute("UPDATE users SET audiences = ? WHERE name = ? AND audiences = ?",
                                            change).rowcount for change in changes)
        except sqlite3.OperationalError:  # busy, or a read-only file: read as labels all the same
            return 0

    def reset_password(self, name: str, password: str, keep: str | None = None) -> Account:
        """New password; unlocks the account and ends its sessions but the one of token `keep`."""
        digest = self._hasher.hash(check_password(password, name))
        return self._update(name, "password_hash = ?, failed = 0, locked_until = ''", (digest,), ends_sessions=True,
                            keep=keep)

    # -- login -------------------------------------------------------------------
    def authenticate(self, name: str, password: str, now: datetime | None = None) -> LoginResult:
        """Check a password for the account `name` means (`resolve`: Alice for alice); counts failures against
        that account, whatever spelling each try used, and locks it after `MAX_FAILURES` in a row."""
        now = now or _now()
        stored = self.resolve(name)
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._COLS}, password_hash FROM users WHERE name = ?", (stored,)
            ).fetchone() if stored is not None else None
        if row is None:
            self._dummy = self._dummy or self._hasher.hash(secrets.token_urlsafe(16))
            _verify(self._hasher, self._dummy, password or "")
            return LoginResult("wrong")
        account, digest = self._account(row), row[-1]
        if account.locked_until and account.locked_until > _iso(now):
            _verify(self._hasher, digest, password or "")  # one hash like every answer: a quick one names the account
            return LoginResult("locked", account)
        if not _verify(self._hasher, digest, password or ""):  # slow: run outside the lock
            return self._count_failure(account.name, now)
        with self._lock:  # another thread's wrong guesses may have locked it while the hash ran
            row = self._db.execute("SELECT locked_until FROM users WHERE name = ?", (account.name,)).fetchone()
        if row and row[0] and row[0] > _iso(now):
            return LoginResult("locked", self.get(account.name))
        if account.disabled or is_reserved(account.name):  # made before the names were reserved
            return LoginResult("disabled", account)
        account = self._update(account.name, "failed = 0, locked_until = ''", ())
        if self._hasher.check_needs_rehash(digest):
            self._update(account.name, "password_hash = ?", (self._hasher.hash(password),))
        return LoginResult("ok", account)

    def _count_failure(self, name: str, now: datetime) -> LoginResult:
        """One more wrong password, counted in one write transaction (parallel guesses all count).

        Why not read-then-write: twenty guesses in parallel all read the same count and wrote
        count + 1, so the account never locked. Only the guess that reaches `MAX_FAILURES` locks it.
        """
        with self._write():
            # one statement: skip an account locked meanwhile; a lock that ran out counts afresh
            row = self._db.execute(
                "UPDATE users SET failed = CASE WHEN locked_until != '' THEN 1 ELSE failed + 1 END, locked_until = '' "
                "WHERE name = ? AND NOT (locked_until != '' AND locked_until > ?) RETURNING failed", (name, _iso(now)),
            ).fetchone()
            locked = row is not None and row[0] >= MAX_FAILURES
            if locked:
                self._db.execute("UPDATE users SET failed = 0, locked_until = ? WHERE name = ?",
                                 (_iso(now + timedelta(minutes=LOCK_MINUTES)), name))
            account = self._db.execute(f"SELECT {self._COLS} FROM users WHERE name = ?", (name,)).fetchone()
        if row is None:  # locked by a parallel guess while this password was hashed
            return LoginResult("locked", self._account(account)) if account else LoginResult("wrong")
        return LoginResult("locked" if locked else "wrong", self._account(account), just_locked=locked)

    def stranger(self, typed: str) -> str:
        """How a login name that is no account is recorded: a keyed hash, never the text itself.

        People type passwords, e-mail addresses and phone numbers into the name field. The key is
        this store's secret, so the tag cannot be reversed by hashing guesses (a plain sha256 of a
        short password can); the same typed name gets the same tag, so repeated tries still line up.
        """
        digest = hmac.new(self._secret, b"login-name\0" + typed.encode("utf-8", "surrogatepass"), hashlib.sha256)
        return f"未知用户#{digest.hexdigest()[:8]}"

    # -- sessions ----------------------------------------------------------------
    # sessions.id holds sha256(session id), never the id: the file (and every backup of it) holds the signing
    # secret too, so a raw id beside it was a live token for whoever read a copy. Sessions stored the old way
    # (raw ids) no longer resolve: those people simply log in again.
    @staticmethod
    def _row_id(session_id: str) -> str:
        return hashlib.sha256(session_id.encode("ascii", "replace")).hexdigest()

    def _sign(self, session_id: str) -> str:
        return hmac.new(self._secret, session_id.encode("ascii"), hashlib.sha256).hexdigest()[:32]

    def open_session(self, name: str, hours: float = SESSION_HOURS, now: datetime | None = None) -> str:
        """A signed token for a new session of `name` (the cookie value)."""
        now = now or _now()
        session_id = secrets.token_urlsafe(24)
        with self._write():
            self._db.execute("DELETE FROM sessions WHERE expires_at < ?", (_iso(now),))
            self._db.execute(
                "INSERT INTO sessions VALUES (?, ?, ?, ?)",
                (self._row_id(session_id), name, _iso(now), _iso(now + timedelta(hours=hours))),
            )
        return f"{session_id}.{self._sign(session_id)}"

    def resolve_session(self, token: str | None, now: datetime | None = None) -> Account | None:
        """The active, unlocked account a token belongs to, or None (forged, expired, ended, disabled)."""
        if not _well_formed(token):
            return None
        session_id, signature = token.split(".")  # type: ignore[union-attr]
        if not hmac.compare_digest(signature, self._sign(session_id)):
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT user FROM sessions WHERE id = ? AND expires_at > ?", (self._row_id(session_id), _iso(now or _now()))
            ).fetchone()
        account = self.get(row[0]) if row else None
        if account is None or account.disabled or is_reserved(account.name):  # as `authenticate` refuses it
            return None
        return account

    def close_session(self, token: str | None) -> None:
        if _well_formed(token):
            with self._write():
                self._db.execute("DELETE FROM sessions WHERE id = ?", (self._row_id(token.split(".")[0]),))  # type: ignore[union-attr]

    def end_sessions(self, name: str, keep: str | None = None) -> None:
        """End `name`'s sessions; `keep`: a token of the person's own (the browser that changed the password)."""
        with self._write():
            self._db.execute("DELETE FROM sessions WHERE user = ? AND id != ?", (name, self._kept(keep)))

    def _kept(self, keep: str | None) -> str:
        """The sessions row of token `keep`, or "" (no row has it)."""
        return self._row_id(keep.split(".")[0]) if keep and "." in keep else ""


def _well_formed(token: str | None) -> bool:
    """True for a token of the shape `open_session` makes; why: a cookie is anyone's text, and non-ASCII text
    made the signing raise (every page an English traceback, the login form never shown)."""
    return isinstance(token, str) and _TOKEN_SHAPE.fullmatch(token) is not None


def _verify(hasher: PasswordHasher, digest: str, password: str) -> bool:
    try:
        return hasher.verify(digest, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
