"""Per-format text extraction (markdown/plain text, docx, html, pdf) into a flat list of `Line`s.

Each extractor only finds text and explicit heading levels; the shared
structure pass in `parsing.py` turns lines into sections, so every format gets
the same 第X章/第X条 rules. Extractors raise `IngestError` for refusals they
can name; anything else they raise is wrapped by the caller.
"""

from __future__ import annotations

import io
import re
from typing import NamedTuple

from ..errors import IngestError

MB = 1024 * 1024


class Line(NamedTuple):
    """One line of extracted text; `level` is an explicit heading level (0 = document title)."""

    text: str
    level: int | None = None
    page: int | None = None
    plain: bool = False  # never a heading (table rows, code blocks)


_CTRL_MAP = {c: None for c in [*range(0x20), 0x7F, *range(0x80, 0xA0), 0xFEFF] if c not in (9, 10)}
_CTRL_MAP.update({0x0B: "\n", 0x0C: "\n", 0x85: "\n", 0x2028: "\n", 0x2029: "\n"})


def normalize_text(text: str) -> str:
    """CRLF/CR to LF, drop control characters, strip trailing ASCII spaces (full-width ones stay)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_CTRL_MAP)
    return "\n".join(line.rstrip(" \t") for line in text.split("\n"))


def _paragraph_lines(text: str, level: int | None = None, page: int | None = None, plain: bool = False) -> list[Line]:
    """A paragraph's lines followed by a blank line, so paragraph boundaries survive."""
    text = normalize_text(text).strip("\n")
    if not text.strip():
        return []
    if level is not None:
        return [Line(" ".join(text.split()), level, page), Line("", None, page)]
    return [Line(t, None, page, plain) for t in text.split("\n")] + [Line("", None, page)]


# --------------------------------------------------------------------------- markdown / plain text

_ATX = re.compile(rf"^ {{0,3}}(#{{1,6}})(?:[ \t]+|(?=[{chr(0x4E00)}-{chr(0x9FFF)}])|$)(.*)$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def markdown_lines(text: str) -> list[Line]:
    """Lines of a .md/.txt file; `#` headings get their level, `**` emphasis is dropped."""
    lines: list[Line] = []
    fenced = False
    for raw in text.split("\n"):
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            lines.append(Line(raw, plain=True))
            continue
        match = _ATX.match(raw)
        if match:
            content = re.sub(r"(?:^|[ \t]+)#+[ \t]*$", "", match.group(2)).replace("**", "").strip()
            lines.append(Line(content, len(match.group(1)) if content else None))
        else:
            lines.append(Line(raw.replace("**", "")))
    return lines


# --------------------------------------------------------------------------- html

_HTML_DROP = {"script", "style", "nav", "noscript", "template", "head", "svg", "iframe", "object"}
_HTML_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_INLINE = set(
    "a abbr b bdi bdo cite code em font i kbd label mark q s samp small span strong sub sup time u var ins del".split()
)
_CJK = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_BR = "\u2028"  # stands for <br> while whitespace is collapsed


def _collapse_html_space(text: str) -> str:
    """HTML whitespace rules, but a line break between two CJK characters is dropped, not a space."""
    text = re.sub(rf"(?<=[{_CJK}])[ \t\r\n\f]*\n[ \t\r\n\f]*(?=[{_CJK}])", "", text)
    text = re.sub(r"[ \t\r\n\f]+", " ", text)
    return "\n".join(part.strip(" ") for part in text.split(_BR))


def html_lines(text: str) -> tuple[list[Line], str]:
    """Headings, paragraphs, list items and table rows in document order; returns lines and <title>."""
    from bs4 import BeautifulSoup, NavigableString, Tag

    soup = BeautifulSoup(text, "lxml")
    title = " ".join(soup.title.get_text().split()) if soup.title else ""
    for tag in soup.find_all(list(_HTML_DROP)):
        tag.decompose()
    lines: list[Line] = []
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            lines.extend(_paragraph_lines(_collapse_html_space("".join(buffer))))
            buffer.clear()

    def walk(node: Tag) -> None:
        for child in node.children:
            if type(child) is NavigableString:
                buffer.append(str(child))
            elif not isinstance(child, Tag):
                continue  # comments, doctype, processing instructions
            elif child.name == "br":
                buffer.append(_BR)
            elif child.name in _HTML_HEADINGS:
                flush()
                lines.extend(_paragraph_lines(child.get_text(" "), _HTML_HEADINGS[child.name]))
            elif child.name == "tr":
                flush()
                cells = [" ".join(c.get_text(" ").split()) for c in child.find_all(["td", "th"], recursive=False)]
                if any(cells):
                    lines.extend(_paragraph_lines(" | ".join(cells), plain=True))
            elif child.name == "pre":
                flush()
                lines.extend(_paragraph_lines(child.get_text(), plain=True))
            elif child.name in _INLINE:
                walk(child)
            else:  # p, li, div, td outside a row, and any other block: its own paragraph(s)
                flush()
                walk(child)
                flush()

    walk(soup)
    flush()
    return lines, title


# --------------------------------------------------------------------------- pdf

OCR_REASON = "PDF 没有可提取的文字层（可能是扫描件或纯图片），扫描件需要 OCR，暂不支持"


def pdf_lines(data: bytes, name: str) -> tuple[list[Line], str]:
    """Text per page with 1-based page numbers; returns the lines and the metadata title."""
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError

    if b"%PDF-" not in data[:1024]:
        raise IngestError(name, "文件已损坏或不是有效的 PDF（缺少 PDF 文件头，可能只是改了扩展名）")
    try:
        reader = PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
    except Exception as exc:
        raise IngestError(name, "PDF 文件已损坏，无法读取") from exc
    if encrypted:
        try:
            opened = bool(reader.decrypt(""))  # owner-password-only files open with an empty password
        except Exception:  # e.g. AES without a crypto backend, or a broken encryption dictionary
            opened = False
        if not opened:
            raise IngestError(name, "PDF 已加密（需要密码才能打开），请先移除密码后再上传")
    try:
        pages = list(reader.pages)
    except Exception as exc:
        raise IngestError(name, "PDF 文件已损坏，无法读取页面") from exc
    if not pages:
        raise IngestError(name, "PDF 没有任何页面")
    lines: list[Line] = []
    for number, page in enumerate(pages, start=1):
        try:
            page.get_contents()  # extract_text() swallows decompression limits; this raises them
            text = page.extract_text() or ""
        except LimitReachedError as exc:  # pypdf caps each decompressed stream
            raise IngestError(name, f"PDF 第 {number} 页的内容解压后过大，疑似压缩炸弹，已拒绝") from exc
        except Exception as exc:
            raise IngestError(name, f"PDF 第 {number} 页无法读取，文件可能已损坏") from exc
        text = normalize_text(text)
        lines += [Line(t, None, number) for t in text.split("\n")]
    if not any(line.text.strip() for line in lines):
        raise IngestError(name, OCR_REASON)
    try:
        metadata = reader.metadata
        title = str(metadata.title or "") if metadata is not None else ""
    except Exception:
        title = ""
    title = re.sub(r"^Microsoft (?:Word|PowerPoint) - |\.(?:docx?|pptx?)$", "", title.strip()).strip()
    return lines, ("" if title.lower() in ("untitled", "无标题") else title)
