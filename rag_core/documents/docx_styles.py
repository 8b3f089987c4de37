"""Word paragraph styles, resolved once per document.

python-docx's `Paragraph.style` looks the style up again on every read, and a paragraph without its own style
goes through `CT_Styles.default_for`, which scans every style of the document: about 2 ms a paragraph, read
several times each, so a 94 KB file of 30,000 tiny paragraphs took a minute to parse. Here the styles part is
read once into a table and a paragraph's style is one dictionary look-up, resolved the way python-docx does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_ON = ("1", "true", "on")


@dataclass(frozen=True)
class ParagraphStyle:
    """What the parser reads of a style: its UI name ("Heading 1", "标题 1", "TOC 1") and its own w:pPr."""

    name: str
    ppr: Any | None  # the style's w:pPr element (numbering, outline level), None when it has none


_NONE = ParagraphStyle("", None)


class StyleTable:
    """Style id → `ParagraphStyle`, built once from the document's styles part.

    As python-docx resolves it: the first w:style with the id; a missing id, an unknown one or one naming a
    style that is not a paragraph style falls back to the default paragraph style (the last one marked default).
    """

    def __init__(self, document: object) -> None:
        from docx.styles import BabelFish

        self._by_id: dict[str, tuple[str, ParagraphStyle]] = {}
        self._default = _NONE
        try:
            root = document.styles.element  # type: ignore[attr-defined]
        except Exception:  # no readable styles part: every paragraph reads as unstyled
            return
        for style in root.iterchildren(_W + "style"):
            kind = style.get(_W + "type")
            name_el = style.find(_W + "name")
            name = name_el.get(_W + "val") if name_el is not None else None
            entry = ParagraphStyle(BabelFish.internal2ui(name) if name else "", style.find(_W + "pPr"))
            self._by_id.setdefault(style.get(_W + "styleId") or "", (kind or "", entry))
            if kind == "paragraph" and (style.get(_W + "default") or "").lower() in _ON:
                self._default = entry

    def of(self, p: Any) -> ParagraphStyle:
        """The style of a w:p element: its w:pStyle if that names a paragraph style, else the default."""
        ppr = p.find(_W + "pPr")
        ref = ppr.find(_W + "pStyle") if ppr is not None else None
        style_id = ref.get(_W + "val") if ref is not None else None
        found = self._by_id.get(style_id) if style_id else None
        return found[1] if found is not None and found[0] == "paragraph" else self._default
