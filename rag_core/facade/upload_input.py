"""What an upload asks for, checked before anything is read: a storable file name, a chosen audience,
and the file name as a page, report or refusal may show it (personal data masked).

Split from `facade.documents` (kept under the 400-line limit); `DocumentActions` inherits `UploadInput`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..accounts.store import _audiences as account_labels
from ..documents.audience_names import audience_label, audience_names
from ..documents.catalog import Catalog, office_today, versions_in_effect, visible_to
from ..documents.prepare import audience_change
from ..documents.redaction import redact_filename, redact_text
from ..documents.standing import scheduled, standing_versions
from ..errors import AccountError, PermissionDenied
from ..insights.audiences import unreadable_labels
from ..search.indexer import refuse_unreplaceable
from ..text.inputs import INVISIBLE
from ..types import DocumentInfo, IngestReport, Principal
from .core import FacadeCore

NO_AUDIENCE = "请选择可见范围：没有选择任何受众，未写入任何内容。需要所有员工都能看到时，请选择“全体员工”"


def displayable_name(name: str) -> str:
    """A file name as valid UTF-8: a byte that was not UTF-8 (a lone surrogate from the command line or the
    file system) becomes U+FFFD, so the name can be stored, audited and shown (SQLite refuses a surrogate)."""
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that did not come from a byte (e.g. "\ud800")
        return name.encode("utf-8", "replace").decode("utf-8")


def audience_of(audience: Sequence[str] | None) -> tuple[str, ...]:
    """The audience labels, trimmed, deduplicated and sorted; a built-in audience typed by the name the pages show, or
    in another case (全体员工, HR, Managers), is its label (`audience_label`): stored as typed it was a new label nobody
    held, and the file reached no one.

    None means "not given" (the CLI without --audience) and stands for 全体员工 here; an upload given None that
    replaces a version keeps that version's readers (`DocumentActions._ingest`): re-ingesting a managers-only
    policy without --audience served it to all staff.
    An explicit list with no label comes back empty and the upload is refused (`NO_AUDIENCE`): widening it
    to everyone published a file meant for 管理者 to all staff when HR forgot to pick 管理者."""
    if audience is None:
        return ("all",)
    if isinstance(audience, str):  # one label, not its letters: "hr" was refused as the labels h and r
        audience = [audience]
    labels = (INVISIBLE.sub("", a) for a in audience if a)  # worked on as shown, as typed text is (`checked`)
    return tuple(sorted({audience_label(a) for a in labels if a.strip()}))


def replaced_on(live: Sequence[DocumentInfo], doc_id: str, today: str, later: str | None) -> list[DocumentInfo]:
    """The versions a new one of `doc_id` replaces, the one whose readers it keeps first: taking effect `later`, the
    one in effect then; at once, the one in effect and every scheduled one (an immediate version cancels them). A
    document whose only versions are still scheduled: their newest first. A change of readers is told against each."""
    if later:
        found = versions_in_effect(live, later).get(doc_id)
    else:
        found = versions_in_effect(live, today).get(doc_id)
        waiting = sorted((v for v in live if scheduled(v, today)), key=lambda v: -v.version)  # the newest first
        if found is not None or waiting:
            return [*([found] if found else []), *(v for v in waiting if found is None or v.version != found.version)]
    newest = max(live, key=lambda v: v.version, default=None)
    return [version] if (version := found or newest) is not None else []


def kept_readers(audience: Sequence[str] | None, given: tuple[str, ...], replaced: Sequence[DocumentInfo]) -> tuple[str, ...]:
    """The readers of a new version: `given` (`audience_of(audience)`), or, with no audience given (None: the CLI
    without --audience), those of the version it replaces (`replaced_on`): re-ingesting a managers-only policy
    without --audience served it to all staff."""
    return replaced[0].audience if audience is None and replaced else given


def readers_change(audience: Sequence[str] | None, given: tuple[str, ...], live: Sequence[DocumentInfo], doc_id: str,
                   effective_date: str | None, today: str, *, asking: bool) -> tuple[tuple[str, ...], list[str]]:
    """The readers a new version of `doc_id` gets (`kept_readers`) and what changes for whom against each version it
    replaces or cancels (`replaced_on`, `audience_change`): the estimate asks it, the ingest reports it."""
    later = effective_date if (effective_date or "") > today else None
    compared = replaced_on(live, doc_id, today, later)
    readers = kept_readers(audience, given, compared)
    return readers, [w for old in compared for w in audience_change(readers, old, later, asking=asking)]


UPLOAD_OUTCOMES = {"indexed": "已索引", "unchanged": "内容未变，未重新索引"}  # the audit trail is read in Chinese


def upload_detail(report: IngestReport, versions: Sequence[DocumentInfo], redact_disabled: Sequence[str],
                  today: str) -> str:
    """The audit trail's line for an upload: the version written and who reads it, and the readers of the version
    before it when they differ (review 391 #2: a managers-only policy opened to all staff read as a routine upload).
    A version scheduled for a later day is no one's before: its readers never had it (review 394 #4)."""
    if not report.ok:
        return report.error
    detail = f"{report.doc_id} v{report.version} {UPLOAD_OUTCOMES.get(report.status, report.status)}"
    before = max((v for v in versions if v.version < report.version and v.status != "pending"
                  and (v.effective_date or "") <= today),
                 key=lambda v: v.version, default=None)
    readers = audience_names(report.audience)
    if report.status == "indexed" and before is not None and set(before.audience) != set(report.audience):
        detail += f"；受众 {audience_names(before.audience)}（v{before.version}）→ {readers}"
    else:
        detail += f"；受众 {readers}"
    return detail + (f"；关闭脱敏：{'、'.join(redact_disabled)}" if redact_disabled else "")


def bad_label(labels: Sequence[str]) -> str:
    """The first of `labels` no account may hold ("" when none), by the accounts' own rule (`accounts.store`):
    stored, "managers, finance" became two labels (the catalog joins labels with commas) and "finance team" one
    nobody holds; either way the file reached none of the readers meant."""
    for label in labels:
        try:
            account_labels([label])
        except AccountError:
            return label
    return ""


def label_refusal(labels: Sequence[str]) -> str:
    """The Chinese refusal of the first bad label ("" when none), shared by uploads and standard answers: the label
    echoed masked and cut, as a typed 生效日期 is. A label carrying personal data (张三13700001111) is refused as an
    account name is (`owner_names`): it is stored with every chunk and shown wherever the document is."""
    if personal := next((label for label in labels if redact_text(label) != label), ""):
        shown = redact_text(personal)
        return (f"受众标签不能含手机号、邮箱、证件号、银行卡号或住址：{shown if len(shown) <= 40 else shown[:40] + '…'}。"
                "请换一个标签（例如部门名称），未写入任何内容")
    if not (bad := bad_label(labels)):
        return ""
    shown = redact_text(bad if len(bad) <= 40 else bad[:40] + "…")
    return (f"受众标签不合法：{shown}（多个受众请分别填写）。受众标签只能用文字、数字、下划线或连字符，"
            "最多 32 个字符，与账号的受众标签一致，未写入任何内容")


class UploadInput(FacadeCore):
    """Mixin of `Assistant` (through `DocumentActions`): the checks and names every upload path shares."""

    catalog: Catalog

    def shown_name(self, filename: str) -> str:
        """The file name as pages, reports and refusals show it: personal data masked (张三_13812345678.md),
        as the stored name is. Pages call this instead of echoing an uploaded name."""
        return self._shown_name(displayable_name(filename))

    def _shown_name(self, filename: str) -> str:
        return redact_filename(filename)[0] if self._settings.redact_pii else filename

    def _audience_refusal(self, actor: Principal, audience: Sequence[str] | None) -> str:
        """Why an upload for `audience` is refused ("" when it is not): none chosen, or one HR cannot read
        (HR manages the audiences it reads only)."""
        labels = audience_of(audience)
        if not labels:
            return NO_AUDIENCE
        if refusal := label_refusal(labels):
            return refusal
        hidden = unreadable_labels(labels, actor.readable)
        if not hidden:
            return ""
        return (f"没有权限：不能把文档发布给你看不到的受众（{audience_names(hidden)}），发布后你将无法查看、替换或删除它。"
                "请只选择你能看到的受众，或请系统管理员上传")

    def _standing(self, actor: Principal, other_than: str) -> list[DocumentInfo]:
        """The other documents' versions in effect or scheduled (what the documents list shows) the actor may read: a
        version a scheduled one replaced stays 'current' in the catalog, but nobody reads it any more."""
        today = office_today(self._settings.timezone)
        return [v for v in standing_versions(self.catalog.live_versions(), today)
                if v.doc_id != other_than and visible_to(v.audience, actor.readable)]

    def _new_version(self, report: IngestReport) -> DocumentInfo | None:
        if report.status != "indexed":
            return None
        return next((v for v in self.catalog.versions(report.doc_id) if v.version == report.version), None)

    def _same_content(self, report: IngestReport, actor: Principal) -> list[str]:
        """The warnings for a new version whose text (the same file uploaded under another name), or a new document
        whose title (a new edition under a new file name), another document the actor may read already has: both
        would be answered from as two live policies. The upload stands."""
        new = self._new_version(report)
        if new is None:
            return []
        others = self._standing(actor, new.doc_id)
        names = list(dict.fromkeys(f"《{v.source}》" for v in others if v.content_hash == new.content_hash))
        same = [] if not names else [
            f"同样的内容已经存为{'、'.join(names)}，这次仍另存为新文档《{new.source}》（{new.doc_id}）。"
            "如果只是重复上传，请删除多余的一份，免得回答引用两份相同的制度"]
        titled = dict.fromkeys(v.doc_id for v in others if new.version == 1 and v.title.strip() == new.title.strip())
        return same + [self._same_title(new.title, doc_id, actor) for doc_id in titled if not names]

    def _same_title(self, title: str, doc_id: str, actor: Principal) -> str:
        """The advice for a new document titled as `doc_id`: upload it as that document's new version, when the
        actor may (`refuse_unreplaceable`, the upload's own check); else who can, so the advice is never refused."""
        try:
            refuse_unreplaceable(self.catalog, doc_id, lambda v: visible_to(v.audience, actor.readable),
                                 office_today(self._settings.timezone))
        except PermissionDenied:
            return (f"已有同名文档《{title}》（文档ID {doc_id}），它有面向你看不到的受众的版本，你不能上传它的新版本："
                    "如果这是它的新版本，请系统管理员上传并删除多出的这一份；如果是另一份制度，请改个标题")
        return f"已有同名文档《{title}》（文档ID {doc_id}）：如果这是它的新版本，请在“文档ID”填 {doc_id} 重新上传，并删除多出的这一份"
