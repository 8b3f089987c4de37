"""What names a document: the id a file name maps onto, a typed id, and the clashes an upload is refused for.

Split from `prepare` (the ingest stage) so each stays under the size limit; `prepare` imports these."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from ..errors import DocumentIdConflict, PermissionDenied
from ..text.inputs import is_blank
from .parsing import safe_filename

_DOC_ID_BAD = re.compile(r"[^\w\u4e00-\u9fff.-]+")


UNREADABLE_NAME = "一份你无权查看的文档"  # how an id clash names a version the uploader may not read
NAME_TAKEN = "没有权限：这个文件名（或文档ID）已被一份不面向你的受众的文档占用，请改名（或换一个文档ID）后再上传"


class NameTaken(PermissionDenied):
    """An upload's id clashes with a document the uploader may read no version of (or a delete names one).

    The refusal (`NAME_TAKEN`) names nothing of it: not its id or file names, no --doc-id, not that it differs only
    in case; that the name is taken cannot be hidden. `audit` keeps which document it was, for the audit trail."""

    def __init__(self, doc_id: str):
        self.doc_id = doc_id
        self.audit = f"与无权查看的文档 {doc_id} 冲突（上传者看不到它的任何版本）"
        super().__init__(NAME_TAKEN)


def doc_id_for(filename: str) -> str:
    """A stable id from the file name: same name → same document, next version."""
    stem = safe_filename(filename).rsplit(".", 1)[0]
    return _DOC_ID_BAD.sub("_", stem).strip("_") or "document"


def shown_text(text: str) -> str:
    """A line that is stored and shown (title, section path, doc id): no control or format characters."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf") or ch == "\t")


def given_doc_id(doc_id: str | None) -> str | None:
    """A typed document id, or None when it shows nothing (spaces, a zero-width space): such an id became
    "document" and silently replaced the document of that id; not given, the id comes from the file name."""
    return None if doc_id is None or is_blank(shown_text(str(doc_id))) else doc_id  # "" is blank too


def id_form(doc_id: str) -> str:
    """What two doc ids are compared by: HR-Leave and hr-leave, 年假制度2024 and 年假制度２０２４ are one name."""
    return unicodedata.normalize("NFKC", doc_id).casefold()


def _names(doc_id: str, sources_of: Callable[[str], Iterable[str]],
           hidden_of: Callable[[str], Iterable[str]] | None) -> str:
    """A document's file names as a clash shows them: a version the uploader may not read is not named."""
    known = {name for name in sources_of(doc_id) if name}
    hidden = set(hidden_of(doc_id)) if hidden_of is not None else set()
    return "、".join(sorted({UNREADABLE_NAME if name in hidden else name for name in known})) or doc_id


def _unseen(doc_id: str, sources_of: Callable[[str], Iterable[str]],
            hidden_of: Callable[[str], Iterable[str]] | None) -> bool:
    """Has the uploader no version of `doc_id` to read (every file name of it is hidden)?"""
    known = {name for name in sources_of(doc_id) if name}
    return hidden_of is not None and bool(known) and known <= set(hidden_of(doc_id))


def check_identity(doc_id: str, source: str, sources_of: Callable[[str], Iterable[str]],
                   hidden_of: Callable[[str], Iterable[str]] | None = None, name_key: str = "",
                   keys_of: Callable[[str], Iterable[str]] | None = None,
                   doc_ids: Callable[[], Iterable[str]] | None = None) -> None:
    """Refuse a file whose *different* name normalises onto an existing document's id.

    "员工手册 v2.md" then "员工手册(v2).md" both become 员工手册_v2; silently making the
    second a new version would retire the first. The caller passes an explicit doc id
    (CLI --doc-id, the page's confirmation) when it really is a new version.
    Names equal only once masked or cut to length (13812345678_加班审批.md, 13987654321_加班审批.md) are told
    apart by `name_key` (the original name's keyed hash) against the document's `keys_of`; a document whose
    versions predate the keys has none, and is matched by its stored name alone.
    A new id equal to a stored one but for letter case or full-width characters (`id_form`; `doc_ids`: the
    stored ids) is refused naming the stored one: made a second document, the old policy kept answering.
    A document of which the uploader may read no version (`hidden_of` hides all its names) is never named:
    `NameTaken`, whichever of these clashes it is, and also for the very same file name.
    """
    known = {name for name in sources_of(doc_id) if name}
    check_twin(doc_id, source, sources_of, hidden_of, doc_ids)
    if known and _unseen(doc_id, sources_of, hidden_of):
        raise NameTaken(doc_id)
    keys = set(keys_of(doc_id)) if known and name_key and keys_of is not None else set()
    if known and source in known and keys and name_key not in keys:
        raise DocumentIdConflict(
            source, doc_id,
            f"已有文档 {doc_id} 来自另一个文件：两个文件名去掉个人信息或截断到 120 个字符后相同（{source}）。"
            f"如果它是该文档的新版本，请明确指定文档ID（命令行加 --doc-id {doc_id}）；否则请先给文件改名",
        )
    if known and source not in known:
        raise DocumentIdConflict(
            source, doc_id,
            f"文件名与已有文档“{_names(doc_id, sources_of, hidden_of)}”对应同一个文档ID {doc_id}。如果它是该文档的新版本，请明确指定文档ID"
            f"（命令行加 --doc-id {doc_id}）；否则请先给文件改名",
        )


def check_twin(doc_id: str, source: str, sources_of: Callable[[str], Iterable[str]],
               hidden_of: Callable[[str], Iterable[str]] | None, doc_ids: Callable[[], Iterable[str]] | None,
               typed: bool = False) -> None:
    """Refuse a new id (`doc_id` has no stored file) equal to a stored one but for letter case or full-width
    characters (`id_form`), naming the stored one, or `NameTaken` when the uploader may read none of it. `typed`:
    the uploader gave the id (--doc-id, the page's 文档ID), else it came from the file name."""
    if doc_ids is None or any(name for name in sources_of(doc_id) if name):
        return
    twin = next((d for d in sorted(doc_ids()) if d != doc_id and id_form(d) == id_form(doc_id)), None)
    if twin is None:
        return
    if _unseen(twin, sources_of, hidden_of):
        raise NameTaken(twin)
    what = f"文档ID“{doc_id}”与已有文档" if typed else "文件名与已有文档"
    fix = "否则请换一个文档ID" if typed else "否则请先给文件改名"
    raise DocumentIdConflict(
        source, twin,
        f"{what}“{_names(twin, sources_of, hidden_of)}”只差大小写或全角/半角字符（文档ID {twin}）。"
        f"如果它是该文档的新版本，请明确指定文档ID（命令行加 --doc-id {twin}）；{fix}",
    )
