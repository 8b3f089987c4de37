"""Word auto-numbering labels ("第八条", "（三）"), which are not part of a paragraph's text.

Split from `docx_format`: the labels follow Word's own counting, so a chapter/article list whose
articles "never restart" (w:lvlRestart 0, how Chinese regulation templates number 第一条…第N条
through the chapters) reads as Word prints it, and a list kept in a list style (w:numStyleLink)
is read through the list it links to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .docx_styles import ParagraphStyle
from .formats import format_number


@dataclass(frozen=True)
class _Level:
    start: int
    number_format: str
    text: str
    suffix: str
    restart_after: int | None  # w:lvlRestart: None = after any higher level, 0 = never, n = after levels 0..n-1


class Numbering:
    """Render the label of a numbered paragraph, counting as Word does through the document."""

    def __init__(self, document: object) -> None:
        from docx.oxml.ns import qn

        self._qn = qn
        self._levels: dict[str, dict[int, _Level]] = {}
        self._num_to_abstract: dict[str, str] = {}
        self._counters: dict[str, dict[int, int]] = {}
        self._restarts: dict[tuple[str, int], int] = {}  # (numId, level) → its w:startOverride, applied at first use
        try:
            root = document.part.numbering_part.element  # type: ignore[attr-defined]
        except Exception:  # no numbering part: nothing to render
            return
        style_links: dict[str, str] = {}  # a list style's name → the abstract list that defines its levels
        links_to: dict[str, str] = {}  # an abstract list kept in a list style → that style's name
        for abstract in root.findall(qn("w:abstractNum")):
            abstract_id = abstract.get(qn("w:abstractNumId"), "")
            self._levels[abstract_id] = {
                int(lvl.get(qn("w:ilvl"), "0")): self._level(lvl) for lvl in abstract.findall(qn("w:lvl"))
            }
            if (link := abstract.find(qn("w:styleLink"))) is not None:
                style_links.setdefault(link.get(qn("w:val"), ""), abstract_id)
            if (link := abstract.find(qn("w:numStyleLink"))) is not None:
                links_to[abstract_id] = link.get(qn("w:val"), "")
        for num in root.findall(qn("w:num")):
            ref, num_id = num.find(qn("w:abstractNumId")), num.get(qn("w:numId"), "")
            if ref is not None:
                abstract_id = ref.get(qn("w:val"), "")
                if not self._levels.get(abstract_id) and links_to.get(abstract_id) in style_links:
                    abstract_id = style_links[links_to[abstract_id]]  # the list style's levels and counters
                self._num_to_abstract[num_id] = abstract_id
            for over in num.findall(qn("w:lvlOverride")):  # a list restarted ("重新开始编号") shares the abstract list
                if (start := over.find(qn("w:startOverride"))) is not None:
                    self._restarts[(num_id, int(over.get(qn("w:ilvl"), "0")))] = int(start.get(qn("w:val"), "1"))

    def _level(self, lvl: object) -> _Level:
        qn = self._qn
        start, fmt, text, suff, restart = (lvl.find(qn(f"w:{tag}")) for tag in  # type: ignore[attr-defined]
                                           ("start", "numFmt", "lvlText", "suff", "lvlRestart"))
        restart_after = None
        if restart is not None and (value := restart.get(qn("w:val"), "")).isdigit():
            restart_after = int(value)
        return _Level(
            start=int(start.get(qn("w:val"), "1")) if start is not None else 1,
            number_format=fmt.get(qn("w:val"), "decimal") if fmt is not None else "decimal",
            text=text.get(qn("w:val"), "") if text is not None else "",
            suffix=suff.get(qn("w:val"), "tab") if suff is not None else "tab",
            restart_after=restart_after,
        )

    def _num_pr(self, p: object, style: ParagraphStyle) -> tuple[str, int] | None:
        qn = self._qn
        for ppr in (p.find(qn("w:pPr")), style.ppr):  # type: ignore[attr-defined]
            num_pr = ppr.find(qn("w:numPr")) if ppr is not None else None
            if num_pr is not None:
                num_id = num_pr.find(qn("w:numId"))
                ilvl = num_pr.find(qn("w:ilvl"))
                if num_id is None:
                    return None
                return num_id.get(qn("w:val"), "0"), int(ilvl.get(qn("w:val"), "0")) if ilvl is not None else 0
        return None

    def label(self, p: object, style: ParagraphStyle) -> str:
        """The rendered label of w:p `p` plus its separator, or "" when not numbered or not renderable."""
        found = self._num_pr(p, style)
        if not found or found[0] == "0":
            return ""
        abstract = self._num_to_abstract.get(found[0], "")
        levels = self._levels.get(abstract)
        ilvl = found[1]
        if not levels or ilvl not in levels:
            return ""
        counters = self._counters.setdefault(abstract, {})
        if (restart := self._restarts.pop(found, None)) is not None:
            counters[ilvl] = restart - 1
        counters[ilvl] = counters.get(ilvl, levels[ilvl].start - 1) + 1
        for deeper in [k for k in counters if k > ilvl and _restarts_after(levels.get(k), ilvl)]:
            del counters[deeper]
        text = levels[ilvl].text
        for match in set(re.findall(r"%([1-9])", text)):
            k = int(match) - 1
            level = levels.get(k)
            rendered = format_number(counters.get(k, level.start if level else 1),
                                     level.number_format if level else "decimal")
            if rendered is None:
                return ""
            text = text.replace(f"%{match}", rendered)
        if not text.strip():
            return ""
        return text + ("" if levels[ilvl].suffix == "nothing" else " ")


def _restarts_after(level: _Level | None, used: int) -> bool:
    """Whether a deeper level starts again after level `used` is numbered (Word's w:lvlRestart)."""
    if level is None or level.restart_after is None:
        return True
    return level.restart_after != 0 and used < level.restart_after
