"""Page furniture: running headers, footers and page numbers that every PDF page repeats.

Why: "华东科技有限公司 内部资料" and "第 3 页 共 10 页" on each page are indexed ten times,
match every question about the company name, and cut articles in two. A line is
furniture when it sits among the first or last lines of a page and, with its digits
page number masked, recurs on most pages; a page-number line at a page's edge goes too. The
page number itself stays as each section's metadata.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

EDGE_LINES = 2  # lines at the top and at the bottom of a page that may be furniture
MIN_SHARE = 0.5  # a line recurring at the edge of at least this share of pages is furniture
_PAGE_NUMBER = re.compile(
    r"^(?:第\s*\d+\s*页(?:\s*[,，/／]?\s*共\s*\d+\s*页)?|共\s*\d+\s*页\s*[,，]?\s*第\s*\d+\s*页"
    r"|[-—–－]\s*\d+\s*[-—–－]|\d+\s*[/／]\s*\d+|(?:page|p\.)\s*\d+(?:\s*(?:of|/)\s*\d+)?|\d{1,4})$",
    re.I,
)

_ARTICLE = re.compile(r"^第[0-9０-９〇零一二三四五六七八九十百千两]+[章节条]")


@dataclass
class Furniture:
    """What was dropped: how many lines, and each distinct kind once (as first seen)."""

    removed: int = 0
    examples: list[str] = field(default_factory=list)


def _key(line: str, page: int) -> str:
    """The line without spaces; its digits masked only when one of them is the page number."""
    text = "".join(line.split())
    if _ARTICLE.match(text) or str(page) not in re.findall(r"\d+", text):
        return text  # an article that happens to carry the page's number is still an article
    return re.sub(r"\d+", "#", text)


def _edges(lines: list[str]) -> list[int]:
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(filled[:EDGE_LINES] + filled[-EDGE_LINES:]))


def is_page_number(line: str) -> bool:
    return bool(_PAGE_NUMBER.match(line.strip()))


def remove_furniture(pages: list[list[str]]) -> tuple[list[list[str]], Furniture]:
    """The pages without their furniture lines (only a document of two pages or more has any)."""
    found = Furniture()
    if len(pages) < 2:
        return pages, found
    seen_on: dict[str, int] = {}
    for number, lines in enumerate(pages, start=1):
        for key in {_key(lines[i], number) for i in _edges(lines)}:
            seen_on[key] = seen_on.get(key, 0) + 1
    needed = max(2, math.ceil(MIN_SHARE * len(pages)))
    repeated = {key for key, count in seen_on.items() if count >= needed}
    kept_pages = []
    shown: set[str] = set()
    longest_first = sorted(repeated, key=len, reverse=True)

    def furniture(line: str, number: int) -> bool:
        """Repeated, a page number, or repeated pieces run together (one extractor's two lines, another's one)."""
        rest = _key(line, number)
        for piece in longest_first:
            rest = rest.replace(piece, "")
        return not rest or is_page_number(line) or (len(rest) < len(_key(line, number)) and is_page_number(rest))

    for number, lines in enumerate(pages, start=1):
        drop = {i for i in _edges(lines) if furniture(lines[i], number)}
        for i in sorted(drop):
            found.removed += 1
            if _key(lines[i], number) not in shown and len(found.examples) < 6:
                shown.add(_key(lines[i], number))
                found.examples.append(lines[i].strip())
        kept_pages.append([line for i, line in enumerate(lines) if i not in drop])
    return kept_pages, found
