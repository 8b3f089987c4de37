"""An uploaded question set before it is kept: refused when too large to run, then masked row by row; then kept
as its uploader's own file (`EvalFileAccess`), which only they (and administrators) can open again.

Why its own module: the retrieval test page's upload is checked here, in the engine, before any of it is
masked or written (`EvalFiles.save_eval_upload`), and the masking keeps the file the same JSONL.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..errors import RagError
from ..evaluation.metrics import QuestionSetError, jsonl_lines
from ..evaluation.runner import MAX_QUESTIONS
from ..text.pii import redact_text
from ..types import Principal
from .core import FacadeCore

MB = 1024 * 1024
MAX_UPLOAD_BYTES = 4 * MB
"""An uploaded set's size: 2,000 rows of a 500-character question and its expected clauses are under 3 MB; a
20 MB upload (the page's own limit) was masked for about 90 s, showing nothing, before its count refused it."""


def refuse_oversized(data: bytes) -> None:
    """QuestionSetError, in Chinese and naming the limit, for a set over `MAX_UPLOAD_BYTES` or `MAX_QUESTIONS`
    questions (its non-blank lines, counted as the loader counts its rows); checked before masking or writing."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise QuestionSetError(f"题集文件有 {len(data) / MB:.1f} MB，超过上传上限 {MAX_UPLOAD_BYTES // MB} MB"
                               f"（一次最多评测 {MAX_QUESTIONS:,} 道题）。请拆成几个文件分别上传；这个文件没有保存")
    questions = sum(1 for line in jsonl_lines(data.decode("utf-8", "surrogateescape")) if line.strip())
    if questions > MAX_QUESTIONS:
        raise QuestionSetError(f"题集有 {questions:,} 道题，一次最多评测 {MAX_QUESTIONS:,} 道。"
                               "请拆成几个文件分别上传；这个文件没有保存")


def masked_question_set(data: bytes) -> bytes:
    """An uploaded JSONL question set with personal data masked in every text of each row, still the same JSONL.

    A question like "我手机13812345678，年假几天" was kept on disk (and in every backup) as typed, and `expected`,
    `any_of` and any other field still are unless masked here; masked expected substrings match chunks, which
    are masked too. A row holding nothing personal keeps its bytes; a line that is not JSON (the loader refuses
    it by its number, so line count and bytes that are not UTF-8 are kept) is masked as plain text.
    Lines are split as the loader splits them (`jsonl_lines`); a row with a raw U+2028 in a string is written
    back with it escaped, so a line-based tool (or reader) still sees one row a line."""
    text = data.decode("utf-8", "surrogateescape")
    lines = []
    for line in jsonl_lines(text):
        body = line.removesuffix("\r")
        ending = line[len(body):]  # a CRLF file stays CRLF
        try:
            row = json.loads(body) if body.strip() else None
            masked = _masked(row)
        except (ValueError, RecursionError):
            row = masked = None
        if isinstance(row, dict | list):
            if masked != row or any(raw in body for raw in _LINE_BREAKS):
                body = _one_line(json.dumps(masked, ensure_ascii=False))
        elif body.strip():
            body = redact_text(body)
        lines.append(body + ending)
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def _masked(value: Any) -> Any:
    """`value` with every text in it (field names too) masked, lists and objects followed."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [_masked(item) for item in value]
    if isinstance(value, dict):
        return {redact_text(key): _masked(item) for key, item in value.items()}
    return value


# characters JSON leaves raw that `str.splitlines` (editors, other tools) breaks a line at: written escaped
_LINE_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def _one_line(dumped: str) -> str:
    """A dumped row that stays one line for any reader: json.dumps(ensure_ascii=False) writes U+2028 raw."""
    for raw, escaped in _LINE_BREAKS.items():
        dumped = dumped.replace(raw, escaped)
    return dumped


EVAL_UPLOADS = "eval_uploads"  # question sets uploaded through the retrieval test page
SAMPLE_EVAL = Path(__file__).resolve().parent.parent.parent / "tests" / "data" / "eval.jsonl"
KEPT_UPLOADS = 20  # a person's newest uploads kept; an older one is deleted when a newer one is saved


def uploader_prefix(user: str) -> str:
    """The start of every file name `user` uploads: "u" and 12 letters of the name's hash (a name may hold characters
    no file name takes, or personal data). Letters a-p, not hex digits: a run of digits (u086901563412) reads as a
    landline to the masker, and the page showed the path masked."""
    digest = hashlib.sha256(user.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return "u" + "".join(chr(ord("a") + int(digit, 16)) for digit in digest) + "-"


class EvalFileAccess(FacadeCore):
    """Base of `facade.maintenance.EvalFiles` (which saves an upload): which question-set files the retrieval test
    page may open.

    The page's path box must not become a probe for any file on the server
    ("does /etc/shadow exist?"): only files inside the data dir (uploads land in
    `<data dir>/eval_uploads/`) and the bundled sample set are opened, symlinks resolved
    first, and the refusal reads the same whether or not the file exists.

    Each upload is its uploader's (review 60): its name starts with `uploader_prefix` and holds a random part, so
    two HR people uploading 题集.jsonl no longer overwrite each other's set, and the path box opens another
    person's upload only for an administrator (who may read everything, as on the other pages).
    """

    eval_upload_limits = (MAX_UPLOAD_BYTES, MAX_QUESTIONS)  # what the page says it takes, from the engine's limits

    def resolve_eval_file(self, path: str | Path, *, actor: Principal | None = None) -> Path:
        """The resolved path when allowed; RagError with one plain reason otherwise."""
        actor = self._acting(actor, "retrieval.test")
        root = Path(self._settings.data_dir).resolve()
        text = str(path).strip()
        candidate = Path(text)
        options = [candidate] if candidate.is_absolute() else [root / candidate, SAMPLE_EVAL.parents[2] / candidate]
        for option in options:
            resolved = option.resolve()
            inside = resolved.is_relative_to(root) or resolved == SAMPLE_EVAL
            if (inside and resolved.suffix in (".jsonl", ".json") and resolved.is_file()
                    and self._may_open_upload(resolved, root, actor)):
                return resolved
        # masked whole, then cut: a typed path may hold a name, a phone or an ID number, shown on the page
        raise RagError(f"只能打开数据目录里的评测文件或在本页上传的文件：{redact_text(text)[:80]}")

    @staticmethod
    def _may_open_upload(resolved: Path, root: Path, actor: Principal) -> bool:
        """Anything outside eval_uploads/ as before; inside it, one's own uploads (an administrator: all)."""
        uploads = root / EVAL_UPLOADS
        if not resolved.is_relative_to(uploads) or actor.role == "admin":
            return True
        return resolved.parent == uploads and resolved.name.startswith(uploader_prefix(actor.user))

    def _eval_source(self, path: str | Path, actor: Principal) -> Path:
        """The question set `run_eval` reads: the path as given only for the data dir's owner at the machine (the
        CLI's `eval FILE`, or a desktop data dir without accounts); every logged-in person gets `resolve_eval_file`.

        Why: run_eval took any path, so HR could hang it on a FIFO or learn whether /etc/... exists and its first
        character; only the retrieval test page checked the path before calling it."""
        if self._local_admin_process or not self.accounts.has_accounts():
            return Path(path)
        return self.resolve_eval_file(path, actor=actor)
