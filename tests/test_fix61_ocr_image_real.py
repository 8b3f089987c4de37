"""Real OCR (loads the model): a portrait phone photo stored sideways with EXIF Orientation 6 reads as its
articles, and a scanned roster whose ID column wraps each number is stored masked."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from rag_core.documents.parsing import parse_bytes
from rag_core.text.pii import redact_text

pytestmark = pytest.mark.slow
LIMIT = 20 * 1024 * 1024
FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, size, index=2)


def test_sideways_phone_photo_is_read_upright() -> None:
    page = Image.new("L", (900, 260), 255)
    draw = ImageDraw.Draw(page)
    for i, text in enumerate(["第一条 室外作业每月高温津贴300元。", "第二条 室内作业每月发放150元。"]):
        draw.text((40, 50 + i * 90), text, font=font(36), fill=0)
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    page.rotate(90, expand=True).convert("RGB").save(out, "JPEG", quality=92, exif=exif.tobytes())
    doc = parse_bytes(out.getvalue(), "通知照片.jpg", max_bytes=LIMIT)
    assert [s.path for s in doc.sections if s.path] == ["第一条", "第二条"]
    assert "300元" in [s for s in doc.sections if s.path == "第一条"][0].text


def test_wrapped_id_in_a_scanned_roster_is_masked() -> None:
    f = font(34)
    image = Image.new("L", (1100, 330), 255)
    draw = ImageDraw.Draw(image)
    cols = [40, 200, 500, 820]
    for c, head in enumerate(["姓名", "身份证号", "手机", "部门"]):
        draw.text((cols[c] + 15, 30), head, font=f, fill=0)
    y = 110
    draw.text((cols[0] + 15, y + 30), "张三", font=f, fill=0)
    draw.text((cols[1] + 15, y), "110101199003", font=f, fill=0)
    draw.text((cols[1] + 15, y + 55), "071233", font=f, fill=0)
    draw.text((cols[2] + 15, y + 30), "13812345678", font=f, fill=0)
    draw.text((cols[3] + 15, y + 30), "财务部", font=f, fill=0)
    out = io.BytesIO()
    image.save(out, "PNG")
    doc = parse_bytes(out.getvalue(), "花名册扫描.png", max_bytes=LIMIT)
    assert "张三 110101199003071233 13812345678 财务部" in doc.text  # one row, the ID one run
    masked = redact_text(doc.text)  # what ingest stores
    assert "110101199003" not in masked and "071233" not in masked and "财务部" in masked
