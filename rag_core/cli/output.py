"""UTF-8 output for the command line, whatever the terminal's locale.

Document titles, doc ids and file names come from uploaded files and options: an
escape sequence in a `<title>` or `--doc-id` would otherwise reach the terminal and
move the cursor, recolour or rewrite what was printed. Control, bidi-format and
lone surrogate characters are therefore shown as visible escapes (`\\x1b`, `\\u202e`) in every line
and every JSON string; newlines and tabs in free text stay as they are.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

from ..errors import os_reason
from ..text.pii import redact_text


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, keep: str = "\n\t") -> str:
    """`text` with control (Cc), format (Cf) and lone surrogate (Cs: an argument that was not UTF-8; it cannot be
    written as UTF-8 at all) characters replaced by visible escapes."""
    return "".join(
        _escape(ch) if unicodedata.category(ch) in ("Cc", "Cf", "Cs") and ch not in keep else ch for ch in str(text)
    )


def field(text: object) -> str:
    """One field of a one-line-per-record listing (audit, docs list, faq list …): a newline or tab in a file name,
    a title or a typed user name is shown as `\\n`/`\\t` too, else it would print a line of its own that reads
    as another record (a forged audit row)."""
    return printable(str(text), keep="")


def _clean(obj: Any) -> Any:
    if isinstance(obj, str):
        return printable(obj)
    if isinstance(obj, dict):
        return {printable(str(k)): _clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_clean(v) for v in obj]
    return obj


def print_json(obj: Any) -> None:
    _write(sys.stdout, json.dumps(_clean(obj), ensure_ascii=False, indent=2))


def say(text: str, err: bool = False) -> None:
    """Print a line; an error line is masked, since it may echo what was typed (没有文档 张伟13812345678)."""
    if err:
        text = redact_text(text)
    _write(sys.stderr if err else sys.stdout, printable(text))


def _write(stream: Any, line: str) -> None:
    """One line to `stream`; none at all (a service or cron job started with it closed, `>&-`) takes nothing: the
    command still does its work instead of ending in a traceback (review 392 #5)."""
    if stream is None or getattr(stream, "closed", False):
        return
    stream.buffer.write((line + "\n").encode("utf-8"))
    stream.flush()


_OS_REASONS = (
    (FileNotFoundError, "找不到这个文件或它所在的文件夹，请检查路径"),
    (IsADirectoryError, "这是一个文件夹，请给出文件的路径（例如 文件夹/导出.xlsx）"),
    (FileExistsError, "这里已有一个同名文件，不能当作文件夹使用，请换一个数据目录"),
    (NotADirectoryError, "路径中有一段是文件而不是文件夹，请检查路径"),
    (PermissionError, "没有读写权限，请换一个位置或检查权限"),
)


def os_error_text(exc: OSError) -> str:
    """What went wrong with which path, in Chinese."""
    reason = next((said for kind, said in _OS_REASONS if isinstance(exc, kind)), None) \
        or os_reason(exc, advice=True)
    return f"{exc.filename}：{reason}" if exc.filename else reason


def unreadable(path: str) -> str | None:
    """Why the file at `path` cannot be read, in Chinese (`os_error_text`), or None: readable, or a folder (each
    command says what it wanted instead of a folder)."""
    try:
        Path(path).open("rb").close()
    except IsADirectoryError:
        return None
    except OSError as exc:
        return os_error_text(exc)
    return None


def noted(warning: str) -> str:
    """A warning after 注意：, once: some of the engine's own (a document's reading notes) already start with it."""
    return warning if re.match(r"\s*注意\s*[：:]", warning) else f"注意：{warning}"
