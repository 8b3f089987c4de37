"""Content a Word file embeds whole (w:altChunk): the body OA systems and web editors export as an HTML part.

Word shows such a part as the document's text, python-docx reads none of it: a policy exported this way
uploaded as its cover line alone, without a word (review 381). HTML, MHT and plain-text parts are read in
place; any other kind is named in the upload notes as not read. The part is inside the archive the zip
checks bounded, and the HTML reader keeps its own element bound.
"""

from __future__ import annotations

import email
import email.policy
import io
import posixpath
import zipfile
from collections.abc import Callable

from ..errors import IngestError, OverBound
from .decoding import decode_text
from .formats import Line, TableCounter, _paragraph_lines
from .html_format import html_lines

_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_WORD_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
WORD_FILE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"  # a whole .docx, kept a blob
_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_RELS_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_TYPES_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"


def word_parts_as_files(data: bytes) -> bytes:
    """The package with each whole Word document a w:altChunk embeds typed as a file, not as the main document part:
    python-docx parsed such a part (a zip) as XML and refused a file Word opens (review 383 #3: the OpenXML SDK's
    merge). Part names compare without case, as OPC's do, and a part typed by its extension (Default) gets an
    Override of its own (review 387 #11). Called after the zip checks bounded the archive; unchanged when no part
    needs it."""
    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        embedded = set()
        for rels in (n for n in names if n.startswith("word/_rels/") and n.endswith(".rels")):
            for rel in etree.fromstring(archive.read(rels)).iter(f"{_RELS_NS}Relationship"):
                if rel.get("Type", "").endswith("/aFChunk") and rel.get("TargetMode") != "External":
                    target = posixpath.normpath(posixpath.join("word", rel.get("Target", ""))).lstrip("/")
                    embedded.add("/" + target.lower())
        if not embedded or "[Content_Types].xml" not in names:
            return data
        types = etree.fromstring(archive.read("[Content_Types].xml"))
        overrides = {(o.get("PartName") or "").lower(): o for o in types.iter(f"{_TYPES_NS}Override")}
        by_extension = {(d.get("Extension") or "").lower(): d.get("ContentType") for d in types.iter(f"{_TYPES_NS}Default")}
        changed = False
        for part in embedded:
            override = overrides.get(part)
            if override is not None and override.get("ContentType") == _WORD_MAIN:
                override.set("ContentType", WORD_FILE)
                changed = True
            elif override is None and by_extension.get(posixpath.splitext(part)[1][1:]) == _WORD_MAIN:
                stored = next((n for n in names if "/" + n.lower() == part), part.lstrip("/"))
                etree.SubElement(types, f"{_TYPES_NS}Override", PartName="/" + stored, ContentType=WORD_FILE)
                changed = True
        if not changed:
            return data
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
            for info in archive.infolist():
                copy.writestr(info, etree.tostring(types, xml_declaration=True, encoding="UTF-8", standalone=True)
                              if info.filename == "[Content_Types].xml" else archive.read(info))
        return out.getvalue()


class Embedded:
    """Reads the embedded parts of one document; counts what it could not read for the upload notes.

    The lines every embedded part gives count against one bound (`max_lines`, the document's paragraph bound),
    checked before a part read already is read again: 60 references to one 2,000-paragraph part gave 240,000 lines
    in 20 s (review 387 #7). Read again, not reused: its tables are numbered anew (389 #3). A Word part embedded in a
    Word part is counted as not read, and said (387 #1), apart from this document's own (`nested_unread`, 389 #6)."""

    def __init__(self, document: object, name: str, tables: TableCounter,
                 read_word: Callable[[bytes, Embedded], list[Line]] | None = None, max_lines: int = 100_000) -> None:
        self._parts = document.part.related_parts  # type: ignore[attr-defined]
        self._name, self._tables, self._read_word = name, tables, read_word  # None: a part inside a part, unread
        self.read = self.unread = self.nested_unread = self.lines_given = 0
        self.max_lines = max_lines
        self._sizes: dict[str, int] = {}  # lines a part gave when read: over the bound, it is not read again

    def lines(self, alt_chunk: object) -> list[Line]:
        part = self._parts.get(alt_chunk.get(_R_ID, ""))  # type: ignore[attr-defined]
        key = str(getattr(part, "partname", id(part)))
        if self.lines_given + self._sizes.get(key, 0) > self.max_lines:
            self._over()
        found = self._read(part)
        self._sizes[key] = len(found or [])
        if found is None:
            self.unread += 1
            return []
        self.read += 1
        self.lines_given += len(found)
        if self.lines_given > self.max_lines:
            self._over()
        return found

    def _over(self) -> None:
        raise OverBound(self._name, f"Word 文档嵌入的内容超过 {self.max_lines:,} 段的上限（疑似异常文件），"
                                      "请在 Word 中另存为普通文档或拆分后再上传")

    def _read(self, part: object) -> list[Line] | None:
        kind = (getattr(part, "content_type", "") or "").lower()
        blob = getattr(part, "blob", b"") if part is not None else b""
        if kind in _HTML_TYPES:
            return html_lines(decode_text(blob, self._name, html=True)[0], self._tables, self._name)[0]
        if kind == "message/rfc822" or blob[:200].lower().lstrip().startswith(b"mime-version"):
            return self._mht(blob)
        if kind == WORD_FILE and self._read_word is not None:
            try:
                return self._read_word(blob, self)
            except OverBound:
                raise
            except IngestError:  # damaged: said as not read, the rest of the file stands
                return None
        if kind == "text/plain":
            return [x for line in decode_text(blob, self._name)[0].splitlines() for x in _paragraph_lines(line)]
        return None

    def _mht(self, blob: bytes) -> list[Line] | None:
        """The first HTML part of a web archive (.mht), as Word saves one."""
        message = email.message_from_bytes(blob, policy=email.policy.compat32)
        for piece in message.walk():
            if piece.get_content_type() in _HTML_TYPES:
                payload = piece.get_payload(decode=True) or b""
                return html_lines(decode_text(payload, self._name, html=True)[0], self._tables, self._name)[0]
        return None

    def count_left(self, body: object) -> None:
        """Embedded parts this reader never reached (in a table cell, a text box) counted as not read."""
        found = sum(1 for _ in body.iter(f"{{{_W_NS}}}altChunk"))  # type: ignore[attr-defined]
        self.unread += max(0, found - self.read - self.unread)

    def said(self) -> list[str]:
        out = [f"已读取 Word 文档中嵌入的 {self.read} 段内容（网页、文本或 Word 文档）"] if self.read else []
        unread = self.unread + self.nested_unread
        return out + ([f"Word 文档中有 {unread} 段嵌入的内容未能读取（格式不支持或在表格里），请在 Word 中另存为普通文档后再上传"]
                      if unread else [])
