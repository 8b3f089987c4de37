"""Turn an uploaded file into a `ParsedDocument`: safe name, size and type checks,
text decoding, and a heading-path structure shared by every format.

Every refusal is an `IngestError` with a Chinese reason the UI can show as is;
no library exception escapes `parse_bytes`/`parse_file`.
"""

from __future__ import annotations

import logging
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from ..errors import IngestError
from ..text.digit_runs import IDENTIFIER_CHARS, number_runs
from ..text.pii import redact_text
from ..types import ParsedDocument, ReadingReport, Section
from .chinese_codecs import encoding_note
from .decoding import decode_text
from .docx_format import docx_lines
from .formats import MB, Line, TableCounter, markdown_lines, normalize_text
from .html_format import html_lines
from .pdf_format import pdf_lines
from .reading import attach_captions, describe, image_lines
from .safe_read import read_regular_file
from .spreadsheet_format import csv_lines, xlsx_lines
from .titles import named_in_text

_log = logging.getLogger(__name__)

SUPPORTED_EXTENSIONS = (".txt", ".md", ".docx", ".pdf", ".html", ".htm", ".xlsx", ".csv", ".png", ".jpg", ".jpeg")
MAX_NAME_CHARS = 120

__all__ = ["SUPPORTED_EXTENSIONS", "parse_bytes", "parse_file", "read_regular_file", "safe_filename", "decode_text"]

# --------------------------------------------------------------------------- names and limits

_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}
DROPPED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, bidi overrides, surrogates, unassigned


def _printable(name: str, mask: Callable[[str], str] | None = None) -> str:
    """The raw name with control characters escaped, for an error about the name itself; personal data masked
    (`mask`, else every category), on the name without its control characters when it has any (13812345678/)."""
    shown = "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in str(name))
    bare = "".join(ch for ch in str(name) if unicodedata.category(ch) not in DROPPED_CATEGORIES)
    masked = (mask or redact_text)(bare) if bare else bare
    return (masked if masked != bare else shown)[:80] or "（空文件名）"


def safe_filename(name: str, mask: Callable[[str], str] | None = None) -> str:
    """The base name only, without control characters, at most 120 characters, extension kept.

    Uploaded names are untrusted: they end up in the index, the UI and maybe on disk. `mask` (personal data
    out) runs before the cut, which could leave 16 of an ID number's 18 digits that no recogniser matches."""
    text = unicodedata.normalize("NFC", str(name))
    text = "".join(
        " " if cat == "Zs" else ch
        for ch, cat in ((ch, unicodedata.category(ch)) for ch in text)
        if cat not in DROPPED_CATEGORIES
    )
    text = text.replace("\\", "/").rsplit("/", 1)[-1]
    text = re.sub(r'[<>:"|?*]', "_", text).strip().strip(".").strip()
    text = mask(text) if text and mask is not None else text
    if not text:
        raise IngestError(_printable(name, mask), "文件名无效：去掉路径和控制字符后没有剩下可用的名字")
    stem, dot, ext = text.rpartition(".")
    if not (dot and stem and 0 < len(ext) <= 16 and " " not in ext):
        stem, ext = text, ""
    else:
        ext = "." + ext
    if len(text) > MAX_NAME_CHARS:
        stem = stem[: MAX_NAME_CHARS - len(ext)].rstrip(" .")
        if not stem:
            raise IngestError(_printable(name, mask), "文件名无效：截断后没有剩下可用的名字")
        text = stem + ext
    if stem.split(".")[0].upper() in _WINDOWS_RESERVED:
        text = "_" + text
    return text


def _extension(name: str) -> str:
    ext = os.path.splitext(name)[1].lower()
    if ext not in SUPPORTED_EXTENSIONS:
        # only a short run of letters reads as a file type; anything else may be a number someone typed
        what = ext if re.fullmatch(r"\.[a-z]{1,8}", ext) else "（无法识别的扩展名）" if ext else "（无扩展名）"
        raise IngestError(name, f"不支持的文件类型 {what}，目前支持：{'、'.join(SUPPORTED_EXTENSIONS)}")
    return ext


def _mb_pair(size: int, limit: int) -> tuple[str, str]:
    """Both sizes in MB, with just enough decimals that they do not look equal."""
    for digits in range(1, 7):
        a, b = f"{size / MB:.{digits}f}", f"{limit / MB:.{digits}f}"
        if a != b and float(b) > 0:
            return f"{a} MB", f"{b} MB"
    return f"{size} 字节", f"{limit} 字节"


def _check_size(name: str, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        shown, limit = _mb_pair(size, max_bytes)
        raise IngestError(name, f"文件大小 {shown} 超过上限 {limit}，请拆分或压缩后再上传")
    if size == 0:
        raise IngestError(name, "文件为空（0 字节）")


# --------------------------------------------------------------------------- structure

_NUM = r"[0-9０-９〇零一二三四五六七八九十百千两]+"
_LEGAL = re.compile(rf"^第[ \t\u3000]*({_NUM})[ \t\u3000]*([章节条])")
_LEGAL_ORDER = {"章": 1, "节": 2, "条": 3}
_SEPARATORS = " \t\u3000:：、.．"
_OPENERS = "（(【["
_NAME_STOP = set(" \t\u3000，。；：、！？,.;:!?（）()【】[]“”\"'《》…—-") | set(_SEPARATORS)
_SENTENCE_END = "。；！？;!?"
_TOC_ENTRY = re.compile(r"(?:\.{3,}|…{2,}|·{3,}|\t)[ \t]*\d+$")  # "第一章 总则……1" in a contents page


# A label citing others: one of its kind joined by a link (、第十三条, 至第十五条, 及第三章; a space alone is no link:
# 第十五条 第十四条所列假期… is an article whose text cites another) or a part (第二款, （二）项, not （一）项目管理)
_GAP = r"[ \t\u3000]*"
_CITED = re.compile(
    rf"{_GAP}(?:以及|或者|[、，,/和与及或至到~～—\-－]){_GAP}第{_GAP}{_NUM}{_GAP}(?P<kind>[章节条款项目])"
    rf"|第{_GAP}{_NUM}{_GAP}(?P<part>[款项目])|第?[（(][^（）()]{{1,8}}[）)](?P<bracket>[项款目])(?![项目])"
)


def _cites(line: str) -> bool:
    """Does a line opening with a label go on to name another one (第十二条、第十三条的规定…, 第十二条（二）项…,
    第三章、第四章的规定…)? Then it refers to them, mid-sentence, and is no heading."""
    text = line.strip()
    match = _LEGAL.match(text)
    cited = _CITED.match(text, match.end()) if match else None
    named = cited and (cited["kind"] or cited["part"] or cited["bracket"])
    return bool(match and named) and (named == match[2] or (match[2] == "条" and named in "款项目"))


_HEADING_CHARS = 80
_RUN_TAIL = re.compile(f"[{IDENTIFIER_CHARS}]+$")  # a phone, ID, card or e-mail (and what masking folds or drops)


def _squash(text: str) -> str:
    """One line of at most 80 characters; a number the cut would split is left out whole (masking comes later).

    A run of 7+ digits (Arabic or Chinese, 一三八…) across the cut is cut before: a piece of 6 or fewer is read
    by no recogniser. The run starts where masking reads the number to start, so 王五 keeps its 五."""
    text = " ".join(text.split()).replace(" > ", " ＞ ")
    if len(text) <= _HEADING_CHARS:
        return text
    cut = min([start for start, end in number_runs(text) if start < _HEADING_CHARS < end], default=_HEADING_CHARS)
    head = text[:cut]
    if _RUN_TAIL.match(text[cut]):
        head = _RUN_TAIL.sub("", head)
    return head.rstrip()


def legal_heading(line: str) -> tuple[int, str] | None:
    """(order, title) when a line opens a 第X章 (1), 第X节 (2) or 第X条 (3); else None.

    A chapter/section must be a short title line; an article may run on into its body,
    so its title is "第X条 name" with the name cut at the first space or punctuation.
    """
    text = line.strip()
    match = _LEGAL.match(text)
    if not match or _TOC_ENTRY.search(text):
        return None
    order = _LEGAL_ORDER[match.group(2)]
    label = f"第{match.group(1)}{match.group(2)}"
    rest = text[match.end() :]
    separated = not rest or rest[0] in _SEPARATORS or rest[0] in _OPENERS
    short = len(text) <= 20 and not any(ch in _SENTENCE_END + "，," for ch in text)
    if order < 3:
        if len(text) > 40 or any(ch in _SENTENCE_END for ch in text) or not (separated or short):
            return None
        return order, _squash(text)
    if separated:
        body = rest.lstrip(_SEPARATORS).lstrip(_OPENERS)
        name = ""
        for ch in body:
            if ch in _NAME_STOP:
                break
            name += ch
        return 3, f"{label} {name}" if 1 <= len(name) <= 10 else label
    return (3, _squash(text)) if short else None


def states_clause(line: str) -> bool:
    """Does a line opening 第X条 go on past the article's name (第三条 婚假为3天，晚婚不再另加; 第一条 员工入职满一年享有
    年假5天)? Then it is a clause, even short and without 。; 第八条 年假 or 第八条（年假） is a heading alone."""
    heading, text = legal_heading(line), line.strip()
    if heading is None or heading[0] != 3 or heading[1] == _squash(text):
        return False
    rest = _LEGAL.sub("", text, count=1).lstrip(_SEPARATORS).lstrip(_OPENERS)
    return bool(rest[len(heading[1].partition(" ")[2]) :].strip(" \t\u3000）)】]"))


class _Head(NamedTuple):
    level: int  # explicit 0-6; implicit 第X章/节/条 sit below any explicit level (8, 9, 10)
    order: int | None  # 1 章, 2 节, 3 条, None for other headings
    title: str


def _classify(line: Line) -> _Head | None:
    if line.plain or not line.text.strip():
        return None
    legal = legal_heading(line.text)
    if line.level is not None:
        return _Head(line.level, legal[0] if legal else None, _squash(line.text))
    if legal and not _cites(line.text):
        return _Head(7 + legal[0], legal[0], legal[1])
    return None


def _push(stack: list[_Head], head: _Head) -> None:
    """Pop every heading at the same or a deeper level, and for 章/节/条 every same-or-finer one."""
    for i, old in enumerate(stack):
        if old.level >= head.level or (head.order and old.order and old.order >= head.order):
            del stack[i:]
            break
    stack.append(head)


def _join(lines: list[str]) -> str:
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return text.strip("\n")


def _runs_on(current: list[str], line: Line, table: int | None) -> bool:
    """Does the text before a page break run on into `line`, the next page's first line? Only when the page's last
    text line reads as an unfinished sentence of prose (每年享有带薪年假 | 十天；…): it ends in a comma, or it is
    long, ends in no digit and holds no tab, bar or column gap (人事部 张三 分机8001, 岗位101 职级P2 月度标准3101元 are
    rows of a list or a table, each page cited by itself). A number the break splits (电话138 | 12345678) is joined so
    it is masked whole. Neither side may be a table."""
    last = next((text.strip() for text in reversed(current) if text.strip()), "")
    first = line.text.strip()
    if not (last and first and line.page is not None and table is None and line.table is None):
        return False
    if _CLOSED.search(last) or "\t" in last or "|" in last:
        return False
    if last[-1].isdigit() or re.search(r"\d[-‐–]$", last):  # 138-, as Word breaks a line after a hyphen
        return first[0].isdigit()
    return bool(_OPEN.search(last)) or (len(re.sub(r"\s", "", last)) >= _PROSE_CHARS and not _COLUMNS.search(last))


_CLOSED = re.compile(r"[。！？；!?;：:.．][”’」』）)\]]*$")
# a clause left open: the sentence goes on whatever the line's length (如下—— does, a ———— divider does not)
_OPEN = re.compile(r"(?:[，,、（(“‘「『]|(?<=[^—\s])—+)$")
_COLUMNS = re.compile(r"[^\sA-Za-z]\s+[^\sA-Za-z]|\s{2,}")  # a gap between CJK or digits (not around a Latin word)
_PROSE_CHARS = 12


def build_sections(lines: Iterable[Line]) -> list[Section]:
    """Cut lines into sections at every heading (and PDF page break unless a sentence runs on across it: the
    section then keeps the page it starts on), heading line kept in the text.

    A section holding only its heading is folded into the next one when that one is nested
    under it, so "第三章 假期" travels with its first article instead of being a lone chunk.
    """
    stack: list[_Head] = []
    raw: list[tuple[Section, bool]] = []
    current: list[str] = []
    path, page, heading_only = "", None, False
    last_page: int | None = None  # the page of the last line read; `page` is where the section starts

    table: int | None = None

    def flush() -> None:
        text = _join(current)
        if text.strip():
            raw.append((Section(text, path, page, table is not None), heading_only and table is None))
        current.clear()

    for line in lines:
        head = _classify(line)
        if head is not None:
            flush()
            _push(stack, head)
            path = " > ".join(h.title for h in stack)
            page, heading_only, table = line.page, True, None
            last_page = page
            current.append(line.text)
            continue
        if line.page != last_page and page == last_page and _runs_on(current, line, table):  # one break at most
            last_page = line.page
            while current and not current[-1].strip():  # the page's closing blank line: no paragraph break
                current.pop()
        if line.page != last_page and not line.text.strip() and current and table is None:
            continue  # blank lines opening the next page wait for its text, which may run on
        if line.page != last_page or (line.table != table and (line.text.strip() or line.table is not None)):
            flush()
            page, heading_only, table = line.page, False, line.table
            last_page = page
        if line.text.strip():
            heading_only = False
        current.append(line.text)
    flush()

    sections: list[Section] = []
    pending: Section | None = None
    for section, only_heading in raw:
        if pending is not None:
            if section.path.startswith(pending.path + " > ") and section.page == pending.page and not section.table:
                section = Section(pending.text + "\n\n" + section.text, section.path, section.page)
            else:
                sections.append(pending)
            pending = None
        if only_heading:
            pending = section
        else:
            sections.append(section)
    if pending is not None:
        sections.append(pending)
    return sections


def _first_heading(lines: list[Line], max_level: int) -> str:
    for line in lines:
        if line.level is not None and line.level <= max_level and line.text.strip():
            if not legal_heading(line.text):
                return _squash(line.text)
    return ""


def _first_line(lines: list[Line]) -> str:
    for line in lines:
        if line.text.strip():
            text = _squash(line.text)
            return "" if len(line.text.strip()) > 60 or legal_heading(text) else text
    return ""


# --------------------------------------------------------------------------- entry points


def parse_bytes(data: bytes, filename: str, *, max_bytes: int) -> ParsedDocument:
    """Parse an upload held in memory; raises IngestError (Chinese reason) for every refusal."""
    name = safe_filename(filename)
    ext = _extension(name)
    data = bytes(data)  # bytearray / memoryview from upload widgets
    _check_size(name, len(data), max_bytes)
    stem = Path(name).stem
    encoding: str | None = None
    text = ""
    reading, tables = ReadingReport(), TableCounter()
    try:
        if ext in (".txt", ".md"):
            text, encoding = decode_text(data, name)
            lines = markdown_lines(normalize_text(text), tables, front_matter=ext == ".md")
            title = _first_heading(lines, 1)
        elif ext in (".html", ".htm"):
            text, encoding = decode_text(data, name, html=True)
            lines, meta_title = html_lines(text, tables, name)
            title = _squash(meta_title) or _first_heading(lines, 1)
        elif ext == ".docx":
            lines, meta_title = docx_lines(data, name, tables, reading.notes)
            title = named_in_text(_squash(meta_title), lines) or _first_heading(lines, 0) or _first_heading(lines, 1)
        elif ext == ".xlsx":
            lines, meta_title = xlsx_lines(data, name, reading, tables)
            title = _squash(meta_title)
        elif ext == ".csv":
            text, encoding = decode_text(data, name)
            lines, title = csv_lines(normalize_text(text), tables), ""
        elif ext == ".pdf":
            lines, meta_title = pdf_lines(data, name, reading, tables)
            title = named_in_text(_squash(meta_title), lines, machine_made=True) or _first_line(lines)
        else:
            lines = image_lines(data, name, reading)
            title = _first_line(lines)
        sections = build_sections(attach_captions(lines))
        describe(reading, tables)
        if note := encoding_note(encoding, text):
            reading.notes.insert(0, note)
    except IngestError:
        raise
    except RecursionError as exc:  # a library walked a deeply nested structure recursively: not a damaged file
        raise IngestError(name, "文件的嵌套层数过多，无法读取；请简化结构或拆分后再上传") from exc
    except Exception as exc:  # a library choked on a malformed file: a plain refusal, the library's word in the log
        _log.info("parse failed: %s", type(exc).__name__)
        raise IngestError(name, "文件解析失败，可能已损坏或格式不正确；请用原软件打开确认，另存后再上传") from exc
    if not sections:
        raise IngestError(name, "文件中没有可提取的文字（只有空白）")
    return ParsedDocument(source=name, title=title or stem, sections=sections, encoding=encoding, reading=reading)


def parse_file(path: str | os.PathLike[str], *, max_bytes: int, display_name: str | None = None) -> ParsedDocument:
    """Parse a file on disk; type and size are checked from the name and stat before any read."""
    p = Path(path)
    name = safe_filename(display_name if display_name is not None else p.name)
    _extension(name)
    return parse_bytes(read_regular_file(p, max_bytes=max_bytes, name=name), name, max_bytes=max_bytes)
