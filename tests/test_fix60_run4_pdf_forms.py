"""A Form XObject's content counts toward the PDF content budget at every use (`pdf_budget.page_budget`).

A page whose content only said `/Fm0 Do` passed the budget (it sized `page.get_contents()` alone) while pypdf's
extract_text and pdfplumber read the form in full: an 8.7 KB file of 3 pages each drawing a 2 MB form ran 238 s at
7.2 GB. Now the drawn forms (nested ones, each use, escaped names) are sized before any text is extracted.
"""

from __future__ import annotations

import time
import zlib

import pytest
from fixtures_files import pdf_file
from pypdf import PageObject

from rag_core.documents import pdf_budget
from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError

TEXT = b"BT /F1 12 Tf 72 720 Td (Annual leave policy: five days per year for staff.) Tj ET\n"
LINE = b"BT /F1 10 Tf 72 700 Td (Staff handbook text block for leave rules.) Tj ET\n"
FONT = "/Font << /F1 3 0 R >>"


def _stream(content: bytes, head: str = "") -> bytes:
    packed = zlib.compress(content, 9)
    return f"<< {head} /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode() + packed + b"\nendstream"


def _pdf(pages: list[tuple[bytes, str]], forms: list[tuple[bytes, str]] = ()) -> bytes:
    """Pages (content, XObject dictionary entries) and forms 4, 5, ... (content, their XObject entries; `None`
    resources when the entries are "-")."""
    first_page = 4 + len(forms)
    kids = " ".join(f"{first_page + 2 * i} 0 R" for i in range(len(pages)))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for content, xobjects in forms:
        resources = "" if xobjects == "-" else f"/Resources << {FONT} /XObject << {xobjects} >> >>"
        objects.append(_stream(content, f"/Type /XObject /Subtype /Form /BBox [0 0 612 792] {resources}"))
    for i, (content, xobjects) in enumerate(pages):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {first_page + 2 * i + 1} 0 R "
                       f"/Resources << {FONT} /XObject << {xobjects} >> >> >>".encode())
        objects.append(_stream(content))
    return pdf_file(objects)


def _text(megabytes: float) -> bytes:
    return LINE * int(megabytes * 1024 * 1024 / len(LINE))


@pytest.fixture
def no_extraction(monkeypatch):
    monkeypatch.setattr(PageObject, "extract_text", lambda *a, **k: pytest.fail("a refused page's text was extracted"))


def test_a_page_drawing_a_large_form_is_refused_before_its_text_is_extracted(no_extraction):
    data = _pdf([(TEXT + b"/Fm0 Do\n", "/Fm0 4 0 R")] * 3, [(_text(2), "-")])
    assert len(data) < 12_000
    start = time.perf_counter()
    with pytest.raises(IngestError, match="第 1 页的内容解压后有 2.0 MB，超过每页 1 MB 的上限"):
        parse_bytes(data, "form.pdf", max_bytes=20 << 20)
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize(("page", "forms"), [
    ((TEXT + b"/Fm0 Do\n" * 5, "/Fm0 4 0 R"), [(_text(0.3), "-")]),  # each use counts: 5 x 0.3 MB
    ((TEXT + b"/Fm0 Do\n", "/Fm0 4 0 R"), [(b"/Fm1 Do\n", "/Fm1 5 0 R"), (_text(1.2), "-")]),  # nested
    ((TEXT + b"/F#6d0 Do\n", "/Fm0 4 0 R"), [(_text(1.2), "-")]),  # the name spelled with an escape
], ids=["each use", "nested", "escaped name"])
def test_every_use_of_every_drawn_form_counts(no_extraction, page, forms):
    with pytest.raises(IngestError, match="第 1 页的内容解压后有 1.[0-9] MB，超过每页 1 MB 的上限"):
        parse_bytes(_pdf([page], forms), "form.pdf", max_bytes=20 << 20)


def test_forms_across_pages_count_toward_the_file_budget(no_extraction):
    data = _pdf([(TEXT + b"/Fm0 Do\n", "/Fm0 4 0 R")] * 10, [(_text(0.9), "-")])
    with pytest.raises(IngestError, match="超过每个文件 8 MB 的上限"):
        parse_bytes(data, "form.pdf", max_bytes=20 << 20)


def test_a_form_that_draws_itself_is_refused(no_extraction):
    data = _pdf([(TEXT + b"/Fm0 Do\n", "/Fm0 4 0 R")], [(LINE + b"/Fm0 Do\n", "/Fm0 4 0 R")])
    with pytest.raises(IngestError, match="第 1 页的图形对象自我引用或嵌套超过 12 层"):
        parse_bytes(data, "loop.pdf", max_bytes=20 << 20)


def test_a_small_form_on_every_page_is_read_and_sized():
    pages = [TEXT.replace(b"five", word) + b"/Fm0 Do\n" for word in (b"nine", b"four", b"six ")]
    data = _pdf([(content, "/Fm0 4 0 R") for content in pages], [(LINE, "-")])
    doc = parse_bytes(data, "letterhead.pdf", max_bytes=20 << 20)
    assert "Annual leave policy: nine days" in doc.sections[0].text
    from io import BytesIO

    from pypdf import PdfReader

    sizes, ruled = pdf_budget.page_budget(list(PdfReader(BytesIO(data)).pages), "letterhead.pdf")
    assert sizes == [len(TEXT) + 8 + len(LINE)] * 3 and ruled == set()


def test_an_image_xobject_is_not_read():
    image = b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 "
    data = _pdf([(TEXT + b"/Im0 Do\n", "/Im0 4 0 R")], [(b"x", "-")]).replace(
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] ", image, 1)
    from io import BytesIO

    from pypdf import PdfReader

    sizes, _ = pdf_budget.page_budget(list(PdfReader(BytesIO(data)).pages), "image.pdf")
    assert sizes == [len(TEXT) + 8]


def test_a_logo_drawn_on_every_page_of_a_long_handbook_counts_once_for_the_file(monkeypatch):
    """Review 260: a 300-page handbook with a 38 KB vector logo (one form of curves, no text) on each page was refused
    at 8 MB, though it is read in about 3 s: a form of shapes only counts once toward the file's budget; text drawn
    through a form still counts at each use (the test above)."""
    import io
    import math

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.beginForm("logo")
    path = c.beginPath()
    for k in range(700):
        a = k / 700 * 2 * math.pi * 7
        x, y = 60 + (20 + 8 * math.sin(5 * a)) * math.cos(a), 780 + (20 + 8 * math.sin(5 * a)) * math.sin(a) / 2
        if k % 50 == 0:
            path.moveTo(x, y)
        path.curveTo(x + 1.123, y + 2.456, x + 3.789, y - 1.234, x + 2.345, y + 0.678)
    c.drawPath(path, fill=1, stroke=0)
    c.endForm()
    for n in range(300):
        c.doForm("logo")
        c.setFont("Helvetica", 10)
        for line in range(40):
            c.drawString(60, 740 - 16 * line, f"Section {n}.{line}: Employees are entitled to annual leave.")
        c.showPage()
    c.save()
    from pypdf import PdfReader

    sizes, _ruled = pdf_budget.page_budget(list(PdfReader(io.BytesIO(buf.getvalue())).pages), "handbook.pdf")
    assert len(sizes) == 300 and sum(sizes) > pdf_budget.MAX_FILE_CONTENT  # every use: over 8 MB; once: far under
