"""Element counts of word/document.xml, streamed before python-docx builds an object for each element.

The zip checks bound bytes, not elements: 6 million empty runs (`<w:r/>`) in one paragraph were a 283 KB file
that python-docx parsed for 100 s in 886 MB, 3 million empty tables 22 s; linear up to the 200 MB limit.
Counting paragraphs alone let those through, so paragraphs, runs and tables (what extraction walks, ~28 µs each)
are bounded together, and every element start is bounded too (what the parser builds, whatever its name).
"""

from __future__ import annotations

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
