"""Per-format text extraction (markdown/plain text, docx, html, pdf) into a flat list of `Line`s.

Each extractor only finds text and explicit heading levels; the shared
structure pass in `parsing.py` turns lines into sections, so every format gets
the same 第X章/第X条 rules. Extractors raise `IngestError` for refusals they
can name; anything else they raise is wrapped by the caller.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from typing import NamedTuple

from .errors import IngestError

MB = 1024 * 1024
DOCX_MAX_UNCOMPRESSED = 200 * MB  # sum of member sizes declared in the zip directory
DOCX_MAX_RATIO = 100  # per member; real document.xml stays well below this
DOCX_MAX_MEMBERS = 5000
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


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


# --------------------------------------------------------------------------- docx


def _check_zip(data: bytes, name: str) -> zipfile.ZipFile:
    """Open the zip and refuse bombs from the directory alone, before inflating anything."""
    if data.startswith(_OLE_MAGIC):
        raise IngestError(name, "这是旧版 Word（.doc）文件或已加密的文档，请在 Word 中另存为未加密的 .docx 后再上传")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise IngestError(name, "文件已损坏或不是有效的 Word 文档（.docx）") from exc
    if len(infos) > DOCX_MAX_MEMBERS:
        raise IngestError(name, f"压缩包内文件数 {len(infos)} 过多，疑似压缩炸弹，已拒绝")
    total = sum(info.file_size for info in infos)
    if total > DOCX_MAX_UNCOMPRESSED:
        raise IngestError(
            name, f"解压后大小 {total / MB:.0f} MB 超过上限 {DOCX_MAX_UNCOMPRESSED // MB} MB，疑似压缩炸弹，已拒绝"
        )
    for info in infos:
        if info.file_size > MB and info.file_size > DOCX_MAX_RATIO * max(info.compress_size, 1):
            ratio = info.file_size // max(info.compress_size, 1)
            raise IngestError(name, f"压缩比异常（{ratio}:1，上限 {DOCX_MAX_RATIO}:1），疑似压缩炸弹，已拒绝")
    if "word/document.xml" not in archive.namelist():
        raise IngestError(name, "文件已损坏或不是有效的 Word 文档（.docx），缺少正文 word/document.xml")
    return archive


_ZH_DIGITS = "零一二三四五六七八九"
_ZH_LEGAL = "零壹贰叁肆伍陆柒捌玖"


def zh_number(n: int, digits: str = _ZH_DIGITS, units: str = "十百千") -> str:
    """1 -> 一, 12 -> 十二, 105 -> 一百零五 (Word's chineseCounting style)."""
    if n <= 0 or n >= 10000:
        return str(n)
    if 10 <= n < 20 and digits is _ZH_DIGITS:
        return units[0] + (digits[n % 10] if n % 10 else "")
    out, zero = "", False
    for power, unit in ((1000, units[2]), (100, units[1]), (10, units[0]), (1, "")):
        d = n // power % 10
        if d:
            out += (digits[0] if zero and out else "") + digits[d] + unit
            zero = False
        elif out:
            zero = True
    return out


def _format_number(n: int, fmt: str) -> str | None:
    if fmt in ("decimal", "decimalZero"):
        return f"{n:02d}" if fmt == "decimalZero" else str(n)
    if fmt in ("chineseCounting", "chineseCountingThousand", "taiwaneseCounting", "taiwaneseCountingThousand"):
        return zh_number(n)
    if fmt in ("chineseLegalSimplified", "ideographLegalTraditional"):
        return zh_number(n, _ZH_LEGAL, "拾佰仟")
    if fmt == "ideographTraditional" and 1 <= n <= 10:
        return "甲乙丙丁戊己庚辛壬癸"[n - 1]
    if fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese") and 1 <= n <= 20:
        return chr(0x2460 + n - 1)
    if fmt == "decimalFullWidth":
        return "".join(chr(ord(c) + 0xFEE0) for c in str(n))
    if fmt in ("upperLetter", "lowerLetter") and 1 <= n <= 26:
        letter = chr(ord("A") + n - 1)
        return letter if fmt == "upperLetter" else letter.lower()
    return None  # bullets, roman numerals and rarer formats: leave the label out


class _Numbering:
    """Render Word auto-numbering labels (e.g. "第八条"), which are not part of the paragraph text."""

    def __init__(self, document: object) -> None:
        from docx.oxml.ns import qn

        self._qn = qn
        self._levels: dict[str, dict[int, tuple[int, str, str, str]]] = {}
        self._num_to_abstract: dict[str, str] = {}
        self._counters: dict[str, dict[int, int]] = {}
        try:
            root = document.part.numbering_part.element  # type: ignore[attr-defined]
        except Exception:  # no numbering part: nothing to render
            return
        for abstract in root.findall(qn("w:abstractNum")):
            levels = {}
            for lvl in abstract.findall(qn("w:lvl")):
                start = lvl.find(qn("w:start"))
                fmt = lvl.find(qn("w:numFmt"))
                text = lvl.find(qn("w:lvlText"))
                suff = lvl.find(qn("w:suff"))
                levels[int(lvl.get(qn("w:ilvl"), "0"))] = (
                    int(start.get(qn("w:val"), "1")) if start is not None else 1,
                    fmt.get(qn("w:val"), "decimal") if fmt is not None else "decimal",
                    text.get(qn("w:val"), "") if text is not None else "",
                    suff.get(qn("w:val"), "tab") if suff is not None else "tab",
                )
            self._levels[abstract.get(qn("w:abstractNumId"), "")] = levels
        for num in root.findall(qn("w:num")):
            ref = num.find(qn("w:abstractNumId"))
            if ref is not None:
                self._num_to_abstract[num.get(qn("w:numId"), "")] = ref.get(qn("w:val"), "")

    def _num_pr(self, paragraph: object) -> tuple[str, int] | None:
        qn = self._qn
        for owner in (paragraph._p, getattr(paragraph.style, "element", None)):  # type: ignore[attr-defined]
            ppr = owner.find(qn("w:pPr")) if owner is not None else None
            num_pr = ppr.find(qn("w:numPr")) if ppr is not None else None
            if num_pr is not None:
                num_id = num_pr.find(qn("w:numId"))
                ilvl = num_pr.find(qn("w:ilvl"))
                if num_id is None:
                    return None
                return num_id.get(qn("w:val"), "0"), int(ilvl.get(qn("w:val"), "0")) if ilvl is not None else 0
        return None

    def label(self, paragraph: object) -> str:
        """The rendered label plus its separator, or "" when not numbered or not renderable."""
        found = self._num_pr(paragraph)
        if not found or found[0] == "0":
            return ""
        abstract = self._num_to_abstract.get(found[0], "")
        levels = self._levels.get(abstract)
        ilvl = found[1]
        if not levels or ilvl not in levels:
            return ""
        counters = self._counters.setdefault(abstract, {})
        counters[ilvl] = counters.get(ilvl, levels[ilvl][0] - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]
        text = levels[ilvl][2]
        for match in set(re.findall(r"%([1-9])", text)):
            k = int(match) - 1
            rendered = _format_number(counters.get(k, levels.get(k, (1,))[0]), levels.get(k, (1, "decimal"))[1])
            if rendered is None:
                return ""
            text = text.replace(f"%{match}", rendered)
        if not text.strip():
            return ""
        return text + ("" if levels[ilvl][3] == "nothing" else " ")


def _docx_level(paragraph: object) -> int | None:
    """Heading level from the style name (Title = 0, Heading N / 标题 N) or the outline level."""
    from docx.oxml.ns import qn

    style = paragraph.style  # type: ignore[attr-defined]
    name = (style.name or "") if style is not None else ""
    if name == "Title":
        return 0
    match = re.fullmatch(r"(?i)(?:heading|标题)\s*([1-9])", name.strip())
    if match:
        return min(int(match.group(1)), 6)
    for owner in (paragraph._p, getattr(style, "element", None)):  # type: ignore[attr-defined]
        ppr = owner.find(qn("w:pPr")) if owner is not None else None
        outline = ppr.find(qn("w:outlineLvl")) if ppr is not None else None
        if outline is not None:
            value = int(outline.get(qn("w:val"), "9"))
            return value + 1 if value < 6 else None
    return None


def _docx_blocks(element: object, parent: object) -> Iterator[object]:
    """Body paragraphs and tables in order, looking inside content controls (w:sdt)."""
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for child in element.iterchildren():  # type: ignore[attr-defined]
        if child.tag == qn("w:p"):
            yield Paragraph(child, parent)
        elif child.tag == qn("w:tbl"):
            yield Table(child, parent)
        elif child.tag == qn("w:sdt"):
            content = child.find(qn("w:sdtContent"))
            if content is not None:
                yield from _docx_blocks(content, parent)


def docx_lines(data: bytes, name: str) -> tuple[list[Line], str]:
    """Paragraphs and table rows in body order; returns the lines and the core-properties title."""
    import docx
    from docx.table import Table

    _check_zip(data, name).close()
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:
        raise IngestError(name, "文件已损坏或不是有效的 Word 文档（.docx）") from exc
    numbering = _Numbering(document)
    lines: list[Line] = []
    for block in _docx_blocks(document.element.body, document._body):
        if isinstance(block, Table):
            for row in block.rows:
                cells, seen = [], set()
                for cell in row.cells:
                    if cell._tc not in seen:  # merged cells repeat the same <w:tc> element
                        seen.add(cell._tc)
                        cells.append(" ".join(cell.text.split()))
                if any(cells):
                    lines += _paragraph_lines(" | ".join(cells), plain=True)
            continue
        style = block.style.name if block.style is not None else ""
        if (style or "").lower().startswith("toc"):
            continue  # table-of-contents entries would read as a run of empty headings
        label = numbering.label(block)  # numbered empty paragraphs still advance the counter
        text = block.text
        lines += _paragraph_lines(label + text if text.strip() else text, _docx_level(block))
    title = (document.core_properties.title or "").strip()
    return lines, title


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
