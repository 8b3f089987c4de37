"""Element counts of a Word document's XML parts, streamed before python-docx builds an object for each element.

The zip checks bound bytes, not elements: 6 million empty runs (`<w:r/>`) in one paragraph were a 283 KB file
that python-docx parsed for 100 s in 886 MB, 3 million empty tables 22 s; linear up to the 200 MB limit.
Counting paragraphs alone let those through, so paragraphs, runs and tables (what extraction walks, ~28 µs each)
are bounded together, and every element start is bounded too (what the parser builds, whatever its name).
One budget covers every part of the archive (`count_archive`): python-docx parses styles, numbering, headers,
footers, settings, comments … whole when it opens the file, and a 2 MB file whose styles.xml inflated to 200 MB
of empty elements held 4.7 GB while only document.xml was counted.
"""

from __future__ import annotations

import zipfile
import zlib
from typing import IO

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
WALKED = frozenset({W + "p", W + "r", W + "tbl"})  # read by namespace: a prefix other than w: counts too


class TooMany(Exception):
    """Raised inside the parser when a bound is passed; `kind` names which ("paragraphs", "parts", "elements")."""

    def __init__(self, kind: str, limit: int) -> None:
        super().__init__(kind)
        self.kind, self.limit = kind, limit


class ElementCount:
    """An lxml parser target: counts element starts and builds no tree, so the count costs no memory."""

    def __init__(self, paragraphs: int, parts: int, elements: int) -> None:
        self.limits = {"paragraphs": paragraphs, "parts": parts, "elements": elements}
        self.counts = dict.fromkeys(self.limits, 0)

    def _add(self, kind: str) -> None:
        self.counts[kind] += 1
        if self.counts[kind] > self.limits[kind]:
            raise TooMany(kind, self.limits[kind])

    def start(self, tag: str, attrib: object) -> None:
        self._add("elements")
        if tag in WALKED:
            self._add("parts")
            if tag == W + "p":
                self._add("paragraphs")

    def close(self) -> dict[str, int]:
        return self.counts


def count_elements(stream: IO[bytes], paragraphs: int, parts: int, elements: int) -> dict[str, int]:
    """Stream `stream` through the counter; `TooMany` past a bound. Malformed XML raises lxml's XMLSyntaxError."""
    from lxml import etree

    parser = etree.XMLParser(target=ElementCount(paragraphs, parts, elements), resolve_entities=False,
                             no_network=True)
    while block := stream.read(1 << 16):
        parser.feed(block)
    return parser.close()


def count_archive(archive: zipfile.ZipFile, paragraphs: int, parts: int, elements: int) -> dict[str, int]:
    """One `ElementCount` over every member of the archive, whatever its name or content type says (python-docx
    picks a part's parser by content type); `TooMany` past a bound. A member that is not XML (an image) stops at
    its first bytes; a malformed or damaged one is counted up to its error and left to python-docx's own refusal, unless
    lxml's error is one of its resource limits (`xml_limit_reason`), which is raised."""
    from lxml import etree

    target = ElementCount(paragraphs, parts, elements)
    for info in archive.infolist():
        if info.is_dir():
            continue
        parser = etree.XMLParser(target=target, resolve_entities=False, no_network=True)
        try:
            with archive.open(info) as stream:
                while block := stream.read(1 << 16):
                    parser.feed(block)
            parser.close()
        except (etree.XMLSyntaxError, zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError,
                NotImplementedError) as exc:  # a damaged member must not end the count of the members after it
            if xml_limit_reason(exc):
                raise
    return target.counts


def xml_limit_reason(exc: BaseException | None) -> str:
    """The Chinese reason when `exc` (or what caused it) is lxml refusing XML for one of its resource limits,
    which python-docx and openpyxl keep: elements nested over 256 deep (Word tables nested in tables about 85
    deep), or a text node over 10 MB (one paragraph). "" for any other error: that file is malformed."""
    from lxml import etree

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, etree.XMLSyntaxError):
            message = str(exc).lower()
            if "depth" in message:
                return "嵌套层数过多（超过 256 层，例如表格里层层套表格），无法读取；请简化结构或拆分后再上传"
            if "huge" in message or "too long" in message:
                return "单个段落过长（一段文字超过 10 MB），请拆分后再上传"
        exc = exc.__cause__ or exc.__context__
    return ""
