"""Content a Word file embeds whole (w:altChunk): the body OA systems and web editors export as an HTML part.

Word shows such a part as the document's text, python-docx reads none of it: a policy exported this way
uploaded as its cover line alone, without a word (review 381). HTML, MHT and plain-text parts are read in
place; any other kind is named in the upload notes as not read. The part is inside the archive the zip
checks bounded, and the HTML reader keeps its own element bound.
"""

from __future__ import annotations

import email
import email.policy

from .decoding import decode_text
from .formats import Line, TableCounter, _paragraph_lines
from .html_format import html_lines

_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_HTML_TYPES = ("text/html", "application/xhtml+xml")


class Embedded:
    """Reads the embedded parts of one document; counts what it could not read for the upload notes."""

    def __init__(self, document: object, name: str, tables: TableCounter) -> None:
        self._parts = document.part.related_parts  # type: ignore[attr-defined]
        self._name, self._tables = name, tables
        self.read = self.unread = 0

    def lines(self, alt_chunk: object) -> list[Line]:
        part = self._parts.get(alt_chunk.get(_R_ID, ""))  # type: ignore[attr-defined]
        kind = (getattr(part, "content_type", "") or "").lower()
        blob = getattr(part, "blob", b"") if part is not None else b""
        found: list[Line] | None = None
        if kind in _HTML_TYPES:
            found = html_lines(decode_text(blob, self._name, html=True)[0], self._tables, self._name)[0]
        elif kind == "message/rfc822" or blob[:200].lower().lstrip().startswith(b"mime-version"):
            found = self._mht(blob)
        elif kind == "text/plain":
            found = [x for line in decode_text(blob, self._name)[0].splitlines() for x in _paragraph_lines(line)]
        if found is None:
            self.unread += 1
            return []
        self.read += 1
        return found

    def _mht(self, blob: bytes) -> list[Line] | None:
        """The first HTML part of a web archive (.mht), as Word saves one."""
        message = email.message_from_bytes(blob, policy=email.policy.compat32)
        for piece in message.walk():
            if piece.get_content_type() in _HTML_TYPES:
                payload = piece.get_payload(decode=True) or b""
                return html_lines(decode_text(payload, self._name, html=True)[0], self._tables, self._name)[0]
        return None

    def said(self) -> list[str]:
        out = [f"已读取 Word 文档中嵌入的 {self.read} 段网页/文本内容"] if self.read else []
        return out + ([f"Word 文档中有 {self.unread} 段嵌入的其他格式内容未能读取，请在 Word 中另存为普通文档后再上传"]
                      if self.unread else [])
