"""Account actions: log in and out, manage users, read the audit trail.

Two modes follow from the account store alone: with no account the person at the
machine is the local administrator and nothing asks for a login (desktop); once
any account exists every caller must name a logged-in `Principal` (team). The
stores are opened on first use in the data dir (`accounts.sqlite3`, `audit.sqlite3`).

Damage fails closed for accounts and open for the audit trail. A damaged account
file, or one that lost its accounts in a data dir the audit trail shows was used
with accounts, is `StoreDamaged` with one Chinese line: never the no-login desktop
mode (the CLI, which acts as the data dir's owner, may still add an administrator).
A truncated account or audit file that a start kept aside counts the same (`storage.account_files`).
An audit row that cannot be written never undoes or fails the action it records:
the action has happened; the line goes to the store notices (and `doctor`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import date
from zoneinfo import ZoneInfo

from ..accounts.audit import ACTION_NAMES, ACTOR_NAMES, OUTCOME_NAMES, action_code, stored_actor
from ..accounts.names import check_name, is_reserved
from ..accounts.serving import desktop_refusal
from ..accounts.store import OWN_LOCKED, LoginResult
from ..documents.audience_names import audience_label, audience_names
from ..errors import AccountError, StoreBusy, StoreDamaged
from ..insights.days import checked_instant, day_window
from ..storage.account_files import AUDIT
from ..text.pii import redact_text
from ..types import ROLE_NAMES, Account, AuditEntry, Principal
from .access import allowed
from .accounts_busy import ACCOUNTS_BUSY, accounts_busy  # noqa: F401 - ACCOUNTS_BUSY: its former home
from .core import ANONYMOUS, FacadeCore, damage_named  # noqa: F401 - ANONYMOUS: its former home
from .upload_input import label_refusal

OWN_PASSWORD = "password.change"  # the audit action of a person changing their own password
def _whole(value: object, name: str) -> int | None:
    """A count or position given by a library caller, as an int; a Chinese error for text that is not a number."""
    if value is None:
        return None
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise AccountError(f"{name}应为整数：{value}") from None


def audience_labels(typed: Sequence[str]) -> list[str]:
    """Account audiences as uploads read a document's (`audience_label`): 管理者, Managers and ＭＡＮＡＧＥＲＳ are the
    label managers. Stored as typed, such a grant was a label no document carries and read nothing."""
    return [audience_label(str(label)) for label in typed if label and str(label).strip()]


def checked_labels(typed: Sequence[str]) -> list[str]:
    """`audience_labels`, refused as an upload's are (`label_refusal`) before anything is written: a label holding
    personal data (张三13700001111) is shown wherever the account is (the users list, the audit trail)."""
    labels = audience_labels(typed)
    if refusal := label_refusal(labels):
        raise AccountError(refusal)
    return labels


def role_change(before: Account | None, after: Account) -> str:
    """A role change as the audit page reads it: 角色 HR → 员工；受众 — → finance (old and new, in Chinese)."""
    def said(account: Account | None) -> tuple[str, str]:
        return (ROLE_NAMES.get(account.role, account.role), audience_names(account.audiences) or "—") if account \
            else ("—", "—")
    (old_role, old_aud), (new_role, new_aud) = said(before), said(after)
    return f"角色 {old_role} → {new_role}；受众 {old_aud} → {new_aud}"


class AccountActions(FacadeCore):
    """Mixin of `Assistant`: login, sessions, users and the audit trail."""

    # -- modes -------------------------------------------------------------------
    def act_as_local_administrator(self) -> None:
        """This process belongs to whoever owns the data dir (the CLI): no login, full rights."""
        self._local_admin_process = True

    @staticmethod
    def can(actor: Principal, permission: str) -> bool:
        """Whether `actor` holds `permission` (pages hide what a person cannot use; the facade still checks)."""
        return allowed(actor, permission)

    # the state 用户管理 and `users list` show for an account made before its name was reserved (系统): it never logs in
    RESERVED_STATE = "名称已保留，无法登录（请新建账户）"

    @staticmethod
    def name_reserved(name: str) -> bool:
        """Whether `name` is one the engine keeps for itself (`accounts.names`): an account so named, made before the
        names were reserved, can never log in (`authenticate`); its person needs a new account."""
        return is_reserved(name)

    @property
    def team_mode(self) -> bool:
        """True once any account exists: every page asks for a login first."""
        return self.accounts.has_accounts()

    def serving_refusal(self, address: str | None, host: str | None = None) -> str | None:
        """Why the app must not serve on `address` ("" or None: every interface) or this request (its Host header
        `host`, None: no header), or None. Without accounts, loopback only (`accounts.serving`); with, anywhere."""
        refusal = desktop_refusal(address, host)
        return None if refusal is None or self.team_mode else refusal

    # -- login -------------------------------------------------------------------
    def login(self, name: str, password: str) -> str:
        """A session token for a right password; raises `AccountError` with the reason, `StoreBusy` while
        another process holds the account file (audited either way)."""
        typed = (name or "").strip()
        if not typed or not password:  # Enter in the name box submits the form: not a wrong try towards the lock
            who = self._login_actor(typed)
            self._audit(who, "login", who.user, "failed", "没有填写用户名或密码（不计入锁定）")
            raise AccountError("请输入用户名和密码")
        result = None
        try:
            with accounts_busy():
                result = self.accounts.authenticate(name, password)
                token = self.accounts.open_session(result.account.name) if result.ok else ""  # type: ignore[union-attr]
        except StoreDamaged as exc:  # busy, or not writable
            who = result.account.principal if result and result.account else self._login_actor(typed)
            self._audit(who, "login", who.user, "failed", str(exc))
            raise
        # the typed name is recorded only when it is an account: otherwise it may be a password typed there
        who = result.account.principal if result.account else self._login_actor(typed)
        outcome = {"ok": "ok", "wrong": "failed", "disabled": "failed", "locked": "locked"}[result.outcome]
        self._audit(who, "login", who.user, outcome, result.audit_detail)
        if not result.ok:
            raise AccountError(result.message)
        return token

    def _login_actor(self, typed: str) -> Principal:
        """Who a login that named no account (or could not read it) is recorded as: the account when `typed`
        is one, else a keyed tag, never the text (it may be a password typed in the name box)."""
        try:
            store = self._accounts  # the account a folded spelling means (alice for Alice) too: `resolve`
            account = store.get(store.resolve(typed) or "") if typed and store is not None else None
        except sqlite3.Error:  # busy still: the tag
            account = None
        return account.principal if account is not None else Principal(user=self._unnamed(typed), role="")

    def _unnamed(self, typed: str, *, email: bool = False) -> str:
        """How a typed name not (yet) accepted as an account's is recorded: a keyed tag (`AccountStore.stranger`),
        never the text, which may be a password typed in the name box. `email`: a sign-on address that opens no
        account, a tag per address (`AccountStore.unknown_email`): the masker wrote every one as [邮箱], or missed one."""
        if not typed:
            return "（空用户名）"
        store = self._accounts  # the tag needs only the store's key, no read: a busy file still has one
        if store is None:
            try:
                store = self.accounts
            except StoreDamaged:  # not even opened: no key, and the text is never written
                return "（邮箱未记录）" if email else "（用户名未记录）"
        return store.unknown_email(typed) if email else store.stranger(typed)

    def login_by_email(self, email: str, *, verified: bool = False) -> str:
        """Single sign-on: the identity provider vouched for `email`; it must be on an enabled account (the allow-list).

        `verified` must be True: the provider confirmed the address (its `email_verified`
        claim). An unconfirmed address could be anyone's, so it opens nothing. Refused
        attempts are audited under a keyed tag of the address, in the actor and the target (personal data).
        """
        with accounts_busy():
            return self._login_by_email((email or "").strip(), verified)

    def _login_by_email(self, email: str, verified: bool) -> str:
        stranger = Principal(user=self._unnamed(email, email=True) if email else "单点登录", role="")
        if not email:
            self._audit(stranger, "login", "", "failed", "身份提供方没有提供邮箱")
            raise AccountError("身份提供方没有提供邮箱，无法对应到账户；请联系管理员")
        if verified is not True:
            self._audit(stranger, "login", stranger.user, "failed", "单点登录邮箱未经身份提供方确认")
            raise AccountError("身份提供方没有确认这个邮箱，不能用它登录；请先在身份提供方完成邮箱验证")
        if len(self.accounts.names_with_email(email)) > 1:
            self._audit(stranger, "login", stranger.user, "failed", "多个账户使用同一邮箱，请管理员只保留一个")
            raise AccountError("这个邮箱属于多个账户，无法确定是谁；请联系管理员")
        account = self.accounts.by_email(email)
        if account is None:
            self._audit(stranger, "login", stranger.user, "failed", "单点登录邮箱不在允许名单")
            raise AccountError("该邮箱没有对应的账户，请联系管理员开通")
        # said and audited as a password login by it is: "no account" sent them to ask for one; a reserved name (an
        # account from before the names were reserved) opens nothing here either, as `authenticate` refuses it
        if account.disabled or is_reserved(account.name):
            refused = LoginResult("disabled", account)
            self._audit(account.principal, "login", account.name, "failed", f"单点登录：{refused.audit_detail}")
            raise AccountError(refused.message)
        try:  # opened first: a busy or read-only file refuses the sign-on, audited as failed (review 383 #4)
            with accounts_busy():
                token = self.accounts.open_session(account.name)
        except StoreDamaged as exc:
            self._audit(account.principal, "login", account.name, "failed", f"单点登录：{exc}")
            raise
        self._audit(account.principal, "login", account.name, "ok", "单点登录")
        return token

    def session_principal(self, token: str | None) -> Principal | None:
        """The person a session token stands for, or None (forged, expired, ended, disabled). Only read: audiences an
        older version stored as typed (Managers, 管理者) read as their labels (`AccountStore` label), never rewritten
        here, where a write overwrote an administrator's change made since the read, or waited on a busy file."""
        with accounts_busy():  # every page asks this first: a busy file is one Chinese line there, not a traceback
            account = self.accounts.resolve_session(token)
        return account.principal if account else None

    def logout(self, token: str | None, *, actor: Principal | None = None) -> None:
        with accounts_busy():
            self.accounts.close_session(token)
        if actor is not None:
            self._audit(actor, "logout", actor.user)

    # -- users -------------------------------------------------------------------
    def list_users(self, *, actor: Principal | None = None) -> list[Account]:
        self._acting(actor, "users")
        with accounts_busy():
            return self.accounts.list()  # audiences stored as typed read as their labels (`AccountStore` label)

    def user_named(self, name: str, *, actor: Principal | None = None) -> Account | None:
        """The account `name` means (Alice for a typed alice), or None: asked before a new password is read."""
        self._acting(actor, "users")
        with accounts_busy():
            stored = self.accounts.resolve(name)
            return self.accounts.get(stored) if stored else None

    def add_user(self, name: str, role: str, password: str, audiences: Sequence[str] = (), email: str = "", *,
                 actor: Principal | None = None) -> Account:
        """Create an account (the first one turns on team mode)."""
        actor = self._acting(actor, "users")
        accepted = False  # until the name passes its checks it may be a password typed in the wrong box
        try:
            with accounts_busy():
                if role != "admin" and not self.accounts.has_accounts():  # team mode would start with nobody to manage it
                    raise AccountError("第一个账户必须是管理员：新建账户后所有页面都需要登录，只有管理员能在网页上管理账户")
                if redact_text(str(name)) != str(name):  # a name is shown everywhere: the sidebar, the audit's actor
                    raise AccountError("用户名不能是手机号、邮箱、证件号、银行卡号或住址：请换一个名字（例如拼音或工号）")
                check_name(name)
                accepted = True
                account = self.accounts.add(name, role, password, checked_labels(audiences), email)
        except (AccountError, StoreBusy) as exc:
            # a name not accepted is recorded as login records unknown names: a tag, in the target and the detail
            typed = str(name).strip()
            recorded = str(name) if accepted else self._unnamed(typed)
            detail = str(exc).replace(typed, recorded) if typed and not accepted else str(exc)
            self._audit(actor, "user.add", recorded, "failed", detail)
            raise
        self._audit(actor, "user.add", account.name, "ok",
                    f"角色 {ROLE_NAMES.get(role, role)}；受众 {audience_names(account.audiences) or '—'}")
        return account

    def set_user_disabled(self, name: str, disabled: bool = True, *, actor: Principal | None = None) -> Account:
        action = "user.disable" if disabled else "user.enable"
        actor = self._acting(actor, "users", action, name)

        def change(stored: str) -> Account:
            if disabled and stored == actor.user:  # the stored name: BOSS typed for boss is still oneself
                raise AccountError("不能停用当前登录的账户")
            return self.accounts.set_disabled(stored, disabled)

        return self._account_change(actor, action, name, change)

    def set_user_role(self, name: str, role: str, audiences: Sequence[str] = (), *,
                      actor: Principal | None = None) -> Account:
        actor = self._acting(actor, "users", f"修改角色（{name} → {ROLE_NAMES.get(role, role)}）", name)
        before: list[Account | None] = []

        def change(stored: str) -> Account:
            before.append(self.accounts.get(stored))  # read in the busy guard, so a busy file is audited as a refusal
            return self.accounts.set_role(stored, role, checked_labels(audiences))

        return self._account_change(actor, "user.role", name, change, lambda after: role_change(before[0], after))

    def set_user_email(self, name: str, email: str, *, actor: Principal | None = None) -> Account:
        """The account's single sign-on address ("" clears it); ends its sessions (one the old address opened)."""
        actor = self._acting(actor, "users", "user.email", name)
        said = "设置" if (email or "").strip() else "清除"
        before: list[str] = []

        def change(stored: str) -> Account:
            before.append(((self.accounts.get(stored) or Account(stored, "")).email or "").casefold())
            return self.accounts.set_email(stored, email)

        def detail(account: Account) -> str:  # the same address saved again ends no login (`set_email`)
            same = before and before[-1] == (account.email or "").casefold()
            return f"{said}单点登录邮箱；" + ("与原来相同，登录不受影响" if same else "该账户的登录已退出")

        return self._account_change(actor, "user.email", name, change, detail)

    def reset_user_password(self, name: str, password: str, *, actor: Principal | None = None,
                            keep_token: str | None = None) -> Account:
        """New password; unlocks the account and ends its sessions. `keep_token`: the acting administrator's own
        session, kept when the account is their own (the browser that reset it, as `change_own_password` keeps it):
        ending it logged them out mid-page. Another person's sessions all end."""
        actor = self._acting(actor, "users", "user.password", name)
        own: list[bool] = []

        def change(stored: str) -> Account:  # own: the token is a live session of this very account, read before the reset
            mine = self.accounts.resolve_session(keep_token) if stored == actor.user and keep_token else None
            own.append(mine is not None and mine.name == stored)
            return self.accounts.reset_password(stored, password, keep=keep_token if own[-1] else None)

        return self._account_change(actor, "user.password", name, change,
                                    lambda _: "本人重置密码；当前登录保留，其他登录已退出" if own[-1] else "")

    def change_own_password(self, old: str, new: str, *, actor: Principal | None = None,
                            keep_token: str | None = None) -> Account:
        """The acting person's new password, given the current one: an administrator need not know it.

        Ends the person's other sessions (a stolen session ends with the old password), keeping
        `keep_token`'s (the browser that changed it). A wrong current password counts toward the lock
        like a wrong login, so the form is no way round it. One audit row either way.
        """
        actor = self._acting(actor, "ask")  # every logged-in person
        detail = ""  # what the audit row says, when it is more than the refusal (an account that just locked)
        try:
            with accounts_busy():
                if self.accounts.get(actor.user) is None:
                    raise AccountError("桌面模式没有账户密码：建立账户后，每个人登录后都可以在“我的账户”里修改自己的密码")
                checked = self.accounts.authenticate(actor.user, old)
                if not checked.ok:
                    detail = checked.audit_detail
                    raise AccountError({"wrong": "当前密码不正确，请重新输入（连续输错会锁定账户）",
                                        "locked": OWN_LOCKED}.get(checked.outcome, checked.message))
                if new == old:
                    raise AccountError("新密码与当前密码相同：请换一个新密码")
                account = self.accounts.reset_password(actor.user, new, keep=keep_token)
        except (AccountError, StoreBusy) as exc:
            self._audit(actor, OWN_PASSWORD, actor.user, "failed", detail or str(exc))
            raise
        self._audit(actor, OWN_PASSWORD, actor.user, "ok", "本人修改密码；其他登录已退出")
        return account

    def _account_change(self, actor: Principal, action: str, name: str, change: Callable[[str], Account],
                        detail: str | Callable[[Account], str] = "") -> Account:
        """Run `change` on the stored name `name` means (Alice for a typed alice: `AccountStore.resolve`), audited
        under it; `detail`: the ok row's text, or made from the changed account."""
        try:
            with accounts_busy():
                name = self.accounts.resolve(name) or name
                account = change(name)
        except (AccountError, StoreBusy) as exc:
            self._audit(actor, action, name, "failed", str(exc))
            raise
        self._audit(actor, action, name, "ok", detail(account) if callable(detail) else detail)
        return account

    # -- audit -------------------------------------------------------------------
    def _stored_name(self, typed: str | None) -> str | None:
        """The account name the trail stores for a typed 操作人 (Alice for alice: `AccountStore.resolve`), else as
        typed (a tag, an account since deleted). A reserved name is the engine's own (system: the samples' import), never
        an account from before the names were reserved (System). The trail fails open: an unreadable account file too."""
        if not typed or not typed.strip() or is_reserved(typed.strip()):
            return typed
        try:
            return self.accounts.resolve(typed) or typed
        except (sqlite3.Error, StoreDamaged):
            return typed

    @staticmethod
    def audit_names() -> tuple[dict[str, str], dict[str, str]]:
        """What the trail's actions and outcomes are called in Chinese (the audit page, its filter and CSV)."""
        return dict(ACTION_NAMES), dict(OUTCOME_NAMES)

    @staticmethod
    def audit_actor_names() -> dict[str, str]:
        """The trail's reserved actors as people read them (local → 本机用户)."""
        return dict(ACTOR_NAMES)

    def audit_entries(
        self,
        *,
        since: str | date | None = None,
        until: str | date | None = None,
        user: str | None = None,
        action: str | None = None,
        outcome: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        actor: Principal | None = None,
    ) -> list[AuditEntry]:
        """The audit trail, newest first, filtered. A `date` is a whole day of the office's zone (`until`
        included); text is an ISO time in UTC, `until` excluded (the CLI's form)."""
        self._acting(actor, "audit")
        user = self._stored_name(stored_actor(user)) if user else user  # the page's names read (review 364)
        if action and (action := action_code(action)) is None:  # a typo matched nothing: 'nobody did it'
            raise AccountError("没有这类操作；可用的有：" + "、".join(f"{n}（{c}）" for c, n in ACTION_NAMES.items()))
        if isinstance(since, date) or isinstance(until, date):
            zone = ZoneInfo(self._settings.timezone)
            since = day_window(since, None, zone)[0] if isinstance(since, date) else since
            until = day_window(None, until, zone)[1] if isinstance(until, date) else until
        since, until = checked_instant(since, "开始"), checked_instant(until, "结束")  # 'yesterday' matched nothing
        if since and until and since > until:  # an empty trail for a reversed window reads as 'nothing happened'
            raise AccountError("开始时间晚于结束时间，请调换或重新选择")
        limit, offset = _whole(limit, "条数"), _whole(offset, "起始位置") or 0
        with damage_named(AUDIT):
            return self.audit_log.entries(since=since, until=until, actor=user, action=action, outcome=outcome, limit=limit,
                                        offset=offset)
