"""How much drawing a PDF may ask to be read: decompressed page content, per page and per file.

An 8 KB one-page PDF whose FlateDecode content held 3 MB of path operators was read for 48 s in 1.1 GB and
accepted (pypdf's extract_text, then pdfplumber's layout parse for the table pass). Real pages measured: a LaTeX
manual's 36 pages hold 5-19 KB of content each (271 KB in all). Text extraction costs about 1.5 s per MB of path
operators and 3.3 s per MB of text operators; pdfplumber's layout parse about 8 s and 50 s (and 1 GB) per MB.
So the content is sized first (decompressing only, each stream bounded by pypdf) and refused past a page or file
budget before any extraction, and the table pass skips a page over a smaller size, or once the file's share is spent.
"""

from __future__ import annotations

from typing import Any

from ..errors import IngestError

MB = 1024 * 1024
MAX_PAGE_CONTENT = 1 * MB  # 50 times the largest page measured: at most about 3 s of text extraction
MAX_FILE_CONTENT = 8 * MB  # 500 pages (the page cap) of 16 KB each
TABLE_PAGE_CONTENT = 256 * 1024  # pdfplumber on a larger page: several seconds and hundreds of MB
TABLE_FILE_CONTENT = 2 * MB  # the table pass for all pages together: under a minute at the worst density


def content_sizes(pages: list[Any], name: str) -> list[int]:
    """Decompressed content bytes of each page; refuses a page or a file over its budget, or a bomb."""
    from pypdf.errors import LimitReachedError

    sizes: list[int] = []
    for number, page in enumerate(pages, start=1):
        try:
            contents = page.get_contents()  # extract_text() swallows decompression limits; this raises them
            size = len(contents.get_data()) if contents is not None else 0
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
        if sum(sizes) > MAX_FILE_CONTENT:
            raise IngestError(
                name, f"PDF 前 {number} 页的内容解压后已超过每个文件 {MAX_FILE_CONTENT // MB} MB 的上限"
                "（页面图形或文字过多），已拒绝；请按章节拆分后分别上传",
            )
    return sizes


def table_pass_pages(sizes: list[int]) -> tuple[set[int], list[int]]:
    """0-based pages the table pass may read, and those it skips for their size or the file's spent share."""
    allowed: set[int] = set()
    skipped: list[int] = []
    spent = 0
    for i, size in enumerate(sizes):
        if size > TABLE_PAGE_CONTENT or spent + size > TABLE_FILE_CONTENT:
            skipped.append(i)
            continue
        spent += size
        allowed.add(i)
    return allowed, skipped
