"""A PDF's decompressed page content is sized before any text is extracted (`documents.pdf_budget`).

An 8 KB one-page PDF whose FlateDecode content held 3 MB of path operators was read for 48 s in 1.1 GB and
accepted; ten such pages were read for minutes. Now a page or a file over its budget is refused in about a second,
and pdfplumber's table pass skips a page whose content is too large for it (pypdf's text layer still reads it).
"""

from __future__ import annotations

import time
import zlib

import pytest
from fixtures_files import make_pdf, pdf_file

from rag_core.documents import pdf_budget, pdf_format
from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError

TEXT = b"BT /F1 12 Tf 72 720 Td (Annual leave policy: five days per year for staff.) Tj ET\n"
PATHS = b"10 10 m 500 10 l S\n"


def _pdf(contents: list[bytes]) -> bytes:
    """Pages with the given (FlateDecode) content streams, one Helvetica font."""
    n = len(contents)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, content in enumerate(contents):
        packed = zlib.compress(content, 9)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {5 + 2 * i} 0 R "
                       "/Resources << /Font << /F1 3 0 R >> >> >>".encode())
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream")
    return pdf_file(objects)


def _paths(megabytes: float) -> bytes:
    return TEXT + PATHS * int(megabytes * 1024 * 1024 / len(PATHS))


def test_a_page_of_megabytes_of_paths_is_refused_at_once():
    data = _pdf([_paths(3)])
    assert len(data) < 20_000  # it compresses to a few KB
    start = time.perf_counter()
    with pytest.raises(IngestError, match="第 1 页的内容解压后有 3.0 MB，超过每页 1 MB 的上限"):
        parse_bytes(data, "heavy.pdf", max_bytes=20 << 20)
    assert time.perf_counter() - start < 5  # 48 s before


def test_pages_under_the_page_budget_that_add_up_past_the_file_budget_are_refused_before_extraction(monkeypatch):
    read = []
    monkeypatch.setattr(pdf_format, "normalize_text", lambda text: read.append(text) or text)
    data = _pdf([_paths(0.9)] * 10)
    with pytest.raises(IngestError, match="超过每个文件 8 MB 的上限"):
        parse_bytes(data, "heavy.pdf", max_bytes=20 << 20)
    assert read == []  # no page's text was extracted first


def test_the_table_pass_skips_a_page_too_large_for_it_and_says_so(monkeypatch):
    calls = []
    real = pdf_format._with_tables
    monkeypatch.setattr(pdf_format, "_with_tables", lambda page: calls.append(page.page_number) or real(page))
    ruled = TEXT + b"72 600 400 200 re S 72 700 m 472 700 l S\n"
    heavy = ruled + PATHS * (300 * 1024 // len(PATHS))
    assert pdf_budget.TABLE_PAGE_CONTENT < len(heavy) < pdf_budget.MAX_PAGE_CONTENT
    doc = parse_bytes(_pdf([ruled, heavy]), "two.pdf", max_bytes=20 << 20)
    assert calls == [1]  # the small ruled page is still given to pdfplumber, the heavy one is not
    assert any("第 2 页的图形或文字过多，没有识别其中的表格" in note for note in doc.reading.notes)
    assert [s.page for s in doc.sections] == [1, 2]
    assert all("Annual leave policy" in s.text for s in doc.sections)


def test_the_table_pass_stops_when_the_file_share_is_spent():
    size = pdf_budget.TABLE_PAGE_CONTENT
    per_file = pdf_budget.TABLE_FILE_CONTENT // size
    allowed, skipped = pdf_budget.table_pass_pages([size] * (per_file + 2) + [10])
    assert allowed == set(range(per_file)) and skipped == list(range(per_file, per_file + 3))


def test_ordinary_pdfs_are_far_below_every_budget():
    data = make_pdf([["第一章 总则", "第一条 员工每年享有带薪年假五天。"] * 40] * 3)
    from io import BytesIO

    from pypdf import PdfReader

    sizes = pdf_budget.content_sizes(list(PdfReader(BytesIO(data)).pages), "a.pdf")
    assert max(sizes) * 10 < pdf_budget.TABLE_PAGE_CONTENT
    doc = parse_bytes(data, "a.pdf", max_bytes=20 << 20)
    assert not any("没有识别其中的表格" in note for note in doc.reading.notes)
