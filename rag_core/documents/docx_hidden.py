"""What Word does not show, or shows outside the body: hidden text (w:vanish) and headers/footers.

A run set hidden (字体 → 隐藏, directly or through its character or paragraph style) is draft or internal text
Word leaves off the page and out of print; `docx_format` removes it before reading and says how much went. Headers
and footers are not read (page furniture), only counted for the same notes.
"""

from __future__ import annotations

from .docx_bounds import W as _W

_OFF = ("0", "false", "off")
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def vanish_styles(document: object) -> dict[str, bool]:
    """Style id → whether its run properties (its own, else its base style's) hide text (w:vanish), for the
    styles that say."""
    own: dict[str, bool | None] = {}
    based: dict[str, str] = {}
    try:
        styles = list(document.styles.element.iterchildren(_W + "style"))  # type: ignore[attr-defined]
    except Exception:  # no readable styles part: only a run's own w:vanish hides it
        styles = []
    for style in styles:
        sid = style.get(_W + "styleId") or ""
        if sid not in own:
            flag, base = style.find(f"{_W}rPr/{_W}vanish"), style.find(_W + "basedOn")
            own[sid] = None if flag is None else _on(flag)
            based[sid] = base.get(_W + "val", "") if base is not None else ""
    found: dict[str, bool] = {}
    for sid in own:
        at, seen = sid, set()
        while own.get(at) is None and at in based and at not in seen:  # a loop of basedOn ends the climb
            seen.add(at)
            at = based[at]
        if own.get(at) is not None:
            found[sid] = bool(own[at])
    return found


def _on(flag: object) -> bool:
    return flag.get(_W + "val", "true").lower() not in _OFF  # type: ignore[attr-defined]


def drop_hidden(root: object, vanish: dict[str, bool]) -> int:
    """Remove the runs under `root` that Word does not show: w:vanish on the run, else in its character style,
    else in its paragraph's style (the nearer one decides); returns how many characters, spaces aside, they held.

    Walks the property elements, not every run: a run element is costly to visit through python-docx's classes."""
    decided: dict[object, bool] = {}
    if any(vanish.values()):
        for ref in root.iter(_W + "pStyle"):  # type: ignore[attr-defined]
            p = ref.getparent().getparent()
            if vanish.get(ref.get(_W + "val", "")) and p is not None and p.tag == _W + "p":
                decided.update((r, True) for r in p.iter(_W + "r") if next(r.iterancestors(_W + "p")) is p)
        for ref in root.iter(_W + "rStyle"):  # type: ignore[attr-defined]
            run = ref.getparent().getparent()
            if (value := vanish.get(ref.get(_W + "val", ""))) is not None and run is not None and run.tag == _W + "r":
                decided[run] = value
    for flag in root.iter(_W + "vanish"):  # type: ignore[attr-defined]
        run = flag.getparent().getparent()  # a paragraph mark's w:pPr/w:rPr is not a run's
        if run is not None and run.tag == _W + "r" and flag.getparent().tag == _W + "rPr":
            decided[run] = _on(flag)
    dropped = 0
    for run, gone in decided.items():
        if gone:
            if not any(a.tag == _MC_FALLBACK for a in run.iterancestors()):  # type: ignore[attr-defined]
                dropped += len("".join("".join(run.itertext(_W + "t")).split()))  # type: ignore[attr-defined]
            run.getparent().remove(run)  # type: ignore[attr-defined]
    return dropped


def margins_with_text(document: object) -> int:
    """How many header and footer parts hold text."""
    count = 0
    for rel in document.part.rels.values():  # type: ignore[attr-defined]
        if rel.reltype.endswith(("/header", "/footer")) and not rel.is_external:
            part = getattr(rel.target_part, "element", None)
            count += part is not None and any((t.text or "").strip() for t in part.iter(_W + "t"))
    return count
