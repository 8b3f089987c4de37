"""With the real OCR: a scanned strip stamped with a typed footer is read (review rev-ocr e9: 夜宵补贴40元 was lost)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from rag_core.documents.parsing import parse_bytes

pytestmark = pytest.mark.slow  # loads RapidOCR's models
FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def test_a_scan_with_a_typed_footer_is_read() -> None:
    scan = Image.new("L", (1240, 300), 255)
    draw = ImageDraw.Draw(scan)
    for k, line in enumerate(["第四条 夜班员工每晚另发夜宵补贴40元。", "第五条 本办法由人力资源部负责解释。"]):
        draw.text((60, 60 + k * 100), line, font=ImageFont.truetype(FONT, 40, index=2), fill=0)
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    c.drawImage(ImageReader(scan), 0, 500, 595, 144)
    c.setFont("STSong-Light", 9)
    c.drawString(72, 40, "公司内部资料 请勿外传")
    c.showPage()
    c.save()
    doc = parse_bytes(out.getvalue(), "餐费补贴办法.pdf", max_bytes=20 * 1024 * 1024)
    text = "".join(doc.text.split())
    assert "夜宵补贴40元" in text and "公司内部资料请勿外传" in text
    assert [p.page for p in doc.reading.ocr_pages if p.indexed] == [1]
