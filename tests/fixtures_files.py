"""Builders for test input files, made on the fly so the repo holds no binaries.

pypdf cannot lay out text, so PDFs are written object by object here; a CJK
line uses a Type0 font (Identity-H, code = Unicode code point) with a
ToUnicode CMap, which is what real Chinese PDFs rely on for text extraction.
"""

from __future__ import annotations

import io
import random
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from pypdf import PdfReader, PdfWriter

IMAGE_ONLY = None  # a page spec meaning "draw a small grey image, no text"


def _pdf_literal(text: str) -> bytes:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return b"(" + escaped.encode("latin-1") + b")"


def _pdf_cid_hex(text: str) -> bytes:
    return b"<" + "".join(f"{ord(c):04X}" for c in text).encode("ascii") + b">"


def _to_unicode_cmap(chars: set[str]) -> bytes:
    """A ToUnicode CMap mapping each 2-byte code (the code point) to itself."""
    codes = sorted(ord(c) for c in chars)
    out = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<0000> <FFFF>",
        "endcodespacerange",
    ]
    for start in range(0, len(codes), 100):
        block = codes[start : start + 100]
        out.append(f"{len(block)} beginbfchar")
        out.extend(f"<{c:04X}> <{c:04X}>" for c in block)
        out.append("endbfchar")
    out += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(out).encode("ascii")


def make_pdf(pages: Sequence[Sequence[str] | None], *, title: str | None = None) -> bytes:
    """A small valid PDF; each page is a list of lines, or IMAGE_ONLY for a picture page."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(data: bytes, extra: bytes = b"") -> bytes:
        return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"

    catalog = add(b"")  # filled in once the page tree exists
    pages_obj = add(b"")
    helv = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    cjk_chars = {c for page in pages if page for line in page for c in line if ord(c) > 126}
    cmap = add(stream(_to_unicode_cmap(cjk_chars or {"\u4e00"})))
    descriptor = add(
        b"<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [0 -200 1000 900]"
        b" /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>"
    )
    cid_font = add(
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light"
        b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
        b" /FontDescriptor %d 0 R /DW 1000 >>" % descriptor
    )
    type0 = add(
        b"<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H"
        b" /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>" % (cid_font, cmap)
    )
    image = add(
        stream(
            bytes([128]) * 16,
            b"/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray /BitsPerComponent 8 ",
        )
    )
    kids = []
    for page in pages:
        if page is IMAGE_ONLY:
            content = b"q 200 0 0 200 100 400 cm /Im1 Do Q"
        else:
            parts = [b"BT 72 760 Td 16 TL"]
            for line in page:
                if all(ord(c) < 127 for c in line):
                    parts.append(b"/F1 12 Tf " + _pdf_literal(line) + b" Tj T*")
                else:
                    parts.append(b"/F2 12 Tf " + _pdf_cid_hex(line) + b" Tj T*")
            parts.append(b"ET")
            content = b"\n".join(parts)
        content_obj = add(stream(content))
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R"
                b" /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>"
                % (pages_obj, content_obj, helv, type0, image)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objects[pages_obj - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    info = add(b"<< /Title " + _pdf_cid_title(title) + b" >>") if title else None

    return pdf_file(objects, root=catalog, info=info, header=b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")


def pdf_file(objects: Sequence[bytes], *, root: int = 1, info: int | None = None,
             header: bytes = b"%PDF-1.7\n") -> bytes:
    """A PDF of `objects` (object n is objects[n - 1]), with its cross-reference table and trailer."""
    out = bytearray(header)
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    trailer = b"<< /Size %d /Root %d 0 R" % (len(objects) + 1, root)
    if info:
        trailer += b" /Info %d 0 R" % info
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _pdf_cid_title(title: str) -> bytes:
    """A text string in UTF-16BE with BOM, as PDF metadata requires for non-Latin text."""
    return b"<FEFF" + title.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def encrypt_pdf(data: bytes, user_password: str, owner_password: str | None = None) -> bytes:
    """Re-save with RC4-128 encryption (needs no optional crypto package)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password, owner_password, algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def docx_bytes(document: DocxDocument) -> bytes:
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def add_article_numbering(document: DocxDocument, lvl_text: str = "第%1条", fmt: str = "chineseCounting") -> int:
    """Register an auto-numbering list like Word's "第一条、第二条…" and return its numId."""
    numbering = document.part.numbering_part.element
    abstract_id = 90
    numbering.insert(
        0,
        parse_xml(
            f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract_id}">'
            f'<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{lvl_text}"/><w:suff w:val="space"/></w:lvl>'
            f"</w:abstractNum>"
        ),
    )
    num_id = 90
    numbering.append(
        parse_xml(f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>')
    )
    return num_id


def numbered_paragraph(document: DocxDocument, text: str, num_id: int, ilvl: int = 0) -> None:
    paragraph = document.add_paragraph(text)
    ppr = paragraph._p.get_or_add_pPr()
    ppr.append(parse_xml(f'<w:numPr {nsdecls("w")}><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'))


def new_docx() -> DocxDocument:
    return docx.Document()


def write_zip_bomb(path: Path, member_mb: int, *, docx_like: bool = True) -> Path:
    """A zip whose one member inflates to member_mb MiB of zeros, written in 1 MiB steps."""
    chunk = bytes(1024 * 1024)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        if docx_like:
            zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(member_mb):
                member.write(chunk)
    return path


def write_sparse(path: Path, size: int) -> Path:
    """A file whose stat size is `size` without writing the bytes."""
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def random_bytes(n: int, seed: int = 7) -> bytes:
    return random.Random(seed).randbytes(n)


def make_pdf_flate_bomb(megabytes: int) -> bytes:
    """One page whose content stream is FlateDecode of `megabytes` MiB of zeros (compressed in steps)."""
    compressor = zlib.compressobj(9)
    chunk = bytes(1024 * 1024)
    packed = b"".join(compressor.compress(chunk) for _ in range(megabytes)) + compressor.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream",
    ]
    return pdf_file(objects)


def wrap_in_content_control(paragraph: object) -> None:
    """Move a paragraph into a block-level content control (w:sdt), as Word templates do."""
    p = paragraph._p  # type: ignore[attr-defined]
    sdt = parse_xml(f"<w:sdt {nsdecls('w')}><w:sdtPr/><w:sdtContent/></w:sdt>")
    p.addprevious(sdt)
    sdt[1].append(p)


def patch_sheet(data: bytes, change) -> bytes:
    """An .xlsx with its first sheet's XML passed through `change` (text in, text out), every other part as is."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = change(body.decode()).encode()
            dest.writestr(item, body)
    return out.getvalue()
