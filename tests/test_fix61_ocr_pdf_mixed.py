"""A scanned page a PDF tool stamped with a typed line (公司内部资料 请勿外传) is still read by OCR, keeping the typed
lines OCR did not read; a typed page with a logo, a seal or a background picture keeps its text layer, never OCR'd.
OCR is replaced by a stand-in (no model): which pages reach it, and what becomes of its lines (review rev-ocr e9)."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from rag_core.documents import pdf_format
from rag_core.documents.ocr import OcrText
from rag_core.documents.parsing import parse_bytes

LIMIT = 20 * 1024 * 1024
pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
PICTURE = ImageReader(Image.new("L", (310, 100), 200))
BODY = ["第一条 为保障员工用餐，制定本办法，适用于公司全体正式员工和试用期员工。"] * 6


def pdf(*pages: tuple[tuple[float, float, float, float] | None, list[str], int]) -> bytes:
    """Pages of (image box x, y, w, h or None, typed lines, font size) on A4."""
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    for box, lines, size in pages:
        if box is not None:
            c.drawImage(PICTURE, *box)
        c.setFont("STSong-Light", size)
        for k, line in enumerate(lines):
            c.drawString(72, 760 - k * 24 if size > 9 else 40, line)
        c.showPage()
    c.save()
    return out.getvalue()


@pytest.fixture()
def ocr(monkeypatch) -> list[tuple[int, int]]:
    """OCR stand-in: each call reads the clause of the page it is given (by call order), confidently."""
    calls: list[tuple[int, int]] = []
    answers = iter([["第四条 夜班员工每晚另发夜宵补贴40元。", "第五条 本办法由人力资源部负责解释。"]] * 10)

    def read(image):
        calls.append(image.size)
        lines = next(answers)
        return OcrText(lines, 0.97, sum(len(x) for x in lines))

    monkeypatch.setattr(pdf_format, "recognize", read)
    return calls


def test_a_scan_with_a_typed_footer_is_read_by_ocr_and_keeps_the_footer(ocr) -> None:
    data = pdf((None, BODY[:2], 14), ((0, 500, 595, 192), ["公司内部资料 请勿外传"], 9))  # the strip covers 23%
    doc = parse_bytes(data, "餐费补贴办法.pdf", max_bytes=LIMIT)
    text = "".join(doc.text.split())
    assert len(ocr) == 1 and [p.page for p in doc.reading.ocr_pages] == [2]
    assert "夜宵补贴40元" in text and "公司内部资料请勿外传" in text and "为保障员工用餐" in text
    assert any(n.startswith("扫描页已用 OCR 识别：第 2 页") for n in doc.reading.notes)


def test_typed_pages_with_a_logo_a_seal_or_a_background_keep_their_text_layer(ocr) -> None:
    data = pdf(
        ((40, 780, 60, 40), ["关于春节放假安排的通知", "各部门：春节放假时间为2月10日至17日，共8天。"], 14),  # a logo, short text
        ((400, 80, 120, 120), BODY[:3], 14),  # a seal
        ((0, 0, 595, 842), BODY, 14),  # a full-page background (or a scan with its text layer)
    )
    doc = parse_bytes(data, "通知.pdf", max_bytes=LIMIT)
    assert ocr == [] and doc.reading.ocr_pages == []
    assert "共8天" in doc.text and "适用于公司全体正式员工" in doc.text


def test_a_picture_ocr_cannot_read_leaves_the_typed_lines_indexed_and_says_so(monkeypatch) -> None:
    monkeypatch.setattr(pdf_format, "recognize", lambda image: OcrText(["夜宵补贴4O元"], 0.41, 7))
    data = pdf((None, BODY[:2], 14), ((0, 300, 595, 400), ["附件：夜班补贴标准（扫描件）"], 14))
    doc = parse_bytes(data, "附件.pdf", max_bytes=LIMIT)
    assert "附件：夜班补贴标准（扫描件）" in doc.text and "4O元" not in doc.text
    note = next(n for n in doc.reading.notes if "主要是图片" in n)
    assert "第 2 页（置信度 0.41）" in note and "只编入了页面上的文字层" in note
    assert not any(n.startswith("以下扫描页识别不可靠") for n in doc.reading.notes)
