"""How much drawing a PDF may ask to be read: decompressed page content, per page and per file.

An 8 KB one-page PDF whose FlateDecode content held 3 MB of path operators was read for 48 s in 1.1 GB and
accepted (pypdf's extract_text, then pdfplumber's layout parse for the table pass). Real pages measured: a LaTeX
manual's 36 pages hold 5-19 KB of content each (271 KB in all). Text extraction costs about 1.5 s per MB of path
operators and 3.3 s per MB of text operators; pdfplumber's layout parse about 8 s and 50 s (and 1 GB) per MB.
So the content is sized first (decompressing only, each stream bounded by pypdf) and refused past a page or file
budget before any extraction, and the table pass skips a page over a smaller size, or once the file's share is spent.

A page's content may only say `/Fm0 Do`: the drawing lives in a Form XObject, which both readers process in full at
every use (an 8.7 KB file whose 3 pages each drew one 2 MB form ran 238 s at 7.2 GB). So each use of a form on a
page counts the form's content, and the forms it uses in turn (a form nested in itself, or deeper than
MAX_FORM_DEPTH, is refused: no real file does that). Images are not read: their bytes are not text operators.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import IngestError

MB = 1024 * 1024
MAX_PAGE_CONTENT = 1 * MB  # 50 times the largest page measured: at most about 3 s of text extraction
MAX_FILE_CONTENT = 8 * MB  # 500 pages (the page cap) of 16 KB each
TABLE_PAGE_CONTENT = 256 * 1024  # pdfplumber on a larger page: several seconds and hundreds of MB
# The table pass for all ruled pages together (pages without a line or rectangle operator spend none of it): a
# 70-page salary appendix (a 50-row ruled table a page, 30 KB each) took pdfplumber 8 s per MB, so about 30 s.
TABLE_FILE_CONTENT = 4 * MB


MAX_FORM_DEPTH = 12  # forms inside forms; a real page nests two or three
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s+Do(?![^\s/\[\]()<>{}%])")  # `/Fm0 Do`: draw the named XObject
_RULE = re.compile(rb"(?<!\S)(?:re|l)(?![^\s/\[(<%])")  # a rectangle or a line: what pdfplumber reads tables from
_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")  # a name may spell a byte as #xx: /F#6d0 is /Fm0
# text shown (Tj, TJ, ', "): what extract_text decodes glyph by glyph; an empty BT … ET (a font set up) shows none
_TEXT = re.compile(rb"(?:[)>\]\s]T[jJ]|\)\s*['\"])(?![^\s/\[(<%])")


class _Nested(Exception):
    """A form that uses itself, or forms nested deeper than MAX_FORM_DEPTH."""


def _forms(resources: Any) -> dict[str, Any]:
    """The Form XObjects a content stream may draw, by name (images are skipped: never decompressed here)."""
    resources = resources.get_object() if resources is not None else None
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    xobjects = xobjects.get_object() if xobjects is not None else None
    if not hasattr(xobjects, "items"):
        return {}
    return {str(key): (obj, _object_key(ref, obj)) for key, ref in xobjects.items()
            if hasattr(obj := ref.get_object(), "get_data") and obj.get("/Subtype") == "/Form"}


def _object_key(ref: Any, obj: Any) -> Any:
    """One form however many pages name it: its object number when it is an indirect object, else the object."""
    return (ref.idnum, ref.generation) if hasattr(ref, "idnum") else id(obj)


def _drawn(data: bytes, resources: Any, stack: list[Any], memo: dict[Any, tuple[int, bool, int]],
           shapes: dict[Any, int]) -> tuple[int, bool, int]:
    """The content `data` asks to be read, every form it draws counted once per use (the forms they draw
    included); whether any of it draws a line or a rectangle; and how much of it the file's budget counts: text
    at every use, a form of shapes only (a logo, a letterhead) once per file, its bytes collected in `shapes`."""
    forms = _forms(resources) if b"Do" in data else {}
    total, ruled = len(data), _RULE.search(data) is not None
    counted = total
    for found in _DO.finditer(data) if forms else ():
        name = "/" + _ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), found.group(1)).decode("latin-1")
        if (named := forms.get(name)) is None:
            continue
        form, key = named
        if key in stack or len(stack) >= MAX_FORM_DEPTH:
            raise _Nested
        if key not in memo:
            stack.append(key)
            memo[key] = _drawn(form.get_data(), form.get("/Resources", resources), stack, memo, shapes)
            stack.pop()
        size, rules, with_text = memo[key]
        total, ruled = total + size, ruled or rules
        if with_text:  # text is read again at every use (about 3 s per MB)
            counted += with_text
        else:  # shapes only: 300 pages drawing a 38 KB logo were read in about 3 s in all
            shapes[key] = size
        if total > MAX_PAGE_CONTENT:  # refused already: no need to count every use
            break
    return total, ruled, (counted if _TEXT.search(data) or counted > len(data) else 0)


def content_sizes(pages: list[Any], name: str) -> list[int]:
    """Decompressed content bytes of each page, each use of a form counted; refuses a page or a file over its
    budget, or a bomb."""
    return page_budget(pages, name)[0]


def page_budget(pages: list[Any], name: str) -> tuple[list[int], set[int]]:
    """`content_sizes`, and the 0-based pages that draw a line or a rectangle (where a ruled table may be)."""
    from pypdf.errors import LimitReachedError

    sizes: list[int] = []
    ruled: set[int] = set()
    # the file's budget counts text at every use and a form of shapes only once, however many pages draw it: a
    # logo drawn on each of 300 pages is read in about 3 s, and counted on every page it refused a real handbook
    forms_once: dict[Any, int] = {}
    in_file = 0
    for number, page in enumerate(pages, start=1):
        try:
            contents = page.get_contents()  # extract_text() swallows decompression limits; this raises them
            data = contents.get_data() if contents is not None else b""
            shapes: dict[Any, int] = {}
            size, rules, with_text = _drawn(data, page.get("/Resources"), [], {}, shapes)
        except _Nested as exc:
            raise IngestError(name, f"PDF 第 {number} 页的图形对象自我引用或嵌套超过 {MAX_FORM_DEPTH} 层，"
                              "文件可能已损坏，已拒绝") from exc
        except LimitReachedError as exc:  # pypdf caps each decompressed stream
            raise IngestError(name, f"PDF 第 {number} 页的内容解压后过大，疑似压缩炸弹，已拒绝") from exc
        except Exception as exc:
            raise IngestError(name, f"PDF 第 {number} 页无法读取，文件可能已损坏") from exc
        if size > MAX_PAGE_CONTENT:
            raise IngestError(
                name, f"PDF 第 {number} 页的内容解压后有 {size / MB:.1f} MB，超过每页 {MAX_PAGE_CONTENT // MB} MB 的上限"
                "（通常是过于复杂的矢量图形），已拒绝；请把这一页另存为图片或简化后再上传",
            )
        sizes.append(size)
        if rules:
            ruled.add(number - 1)
        in_file += max(with_text, len(data)) + sum(bytes_ for key, bytes_ in shapes.items() if key not in forms_once)
        forms_once.update(shapes)
        if in_file > MAX_FILE_CONTENT:
            raise IngestError(
                name, f"PDF 前 {number} 页的内容解压后已超过每个文件 {MAX_FILE_CONTENT // MB} MB 的上限"
                "（页面图形或文字过多），已拒绝；请按章节拆分后分别上传",
            )
    return sizes, ruled


def table_pass_pages(sizes: list[int], candidates: set[int] | None = None) -> tuple[set[int], list[int]]:
    """0-based pages the table pass may read among `candidates` (default: all), and those it skips for their size
    (over TABLE_PAGE_CONTENT) or the file's spent share; only candidates spend it."""
    allowed: set[int] = set()
    skipped: list[int] = []
    spent = 0
    for i, size in enumerate(sizes):
        if candidates is not None and i not in candidates:
            continue
        if size > TABLE_PAGE_CONTENT or spent + size > TABLE_FILE_CONTENT:
            skipped.append(i)
            continue
        spent += size
        allowed.add(i)
    return allowed, skipped
