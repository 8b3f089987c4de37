"""Opening an uploaded image, no model: upright as its EXIF says, transparent pixels on white, size checked
before decoding, only PNG/JPEG of one page, and every refusal in plain Chinese through parse_bytes."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from rag_core.documents import ocr
from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError

LIMIT = 20 * 1024 * 1024


def upright() -> Image.Image:
    """A landscape page with a dark mark at its top-left corner."""
    image = Image.new("L", (300, 120), 255)
    image.paste(0, (0, 0, 40, 30))
    return image


STORED = {3: lambda im: im.rotate(180), 6: lambda im: im.rotate(90, expand=True), 8: lambda im: im.rotate(-90, expand=True)}


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_is_applied(orientation: int) -> None:
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    STORED[orientation](upright()).convert("RGB").save(out, "JPEG", quality=95, exif=exif.tobytes())
    image = ocr.open_image(out.getvalue())
    assert image.size == (300, 120)
    grey = image.convert("L")
    assert grey.getpixel((10, 10)) < 80 and grey.getpixel((290, 110)) > 180


def test_transparent_background_becomes_white() -> None:
    rgba = Image.new("RGBA", (60, 30), (0, 0, 0, 0))
    rgba.paste((0, 0, 0, 255), (0, 0, 10, 10))
    flat = ocr.on_white(rgba).convert("L")
    assert flat.getpixel((30, 20)) == 255 and flat.getpixel((5, 5)) == 0
    palette = Image.new("P", (20, 20), 0)
    palette.info["transparency"] = 0
    assert ocr.on_white(palette).convert("L").getpixel((5, 5)) == 255


def test_sixteen_bit_grey_keeps_its_mid_tones() -> None:
    grey16 = Image.fromarray(np.full((10, 10), 32896, dtype=np.uint16))  # mid grey
    assert 120 <= ocr.on_white(grey16).convert("L").getpixel((5, 5)) <= 135


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def test_a_huge_image_is_refused_before_it_is_decoded(monkeypatch) -> None:
    monkeypatch.setattr(ocr, "MAX_PIXELS", 1_000_000)
    data = png(Image.new("1", (1500, 1000), 1))

    def no_decoding(self):
        raise AssertionError("decoded a refused image")

    monkeypatch.setattr(Image.Image, "load", no_decoding)
    with pytest.raises(ocr.ImageRefused) as info:
        ocr.open_image(data)
    assert "图片尺寸过大（1500×1000 像素）" in str(info.value)


def test_a_large_image_is_reduced_before_ocr() -> None:
    image = ocr.open_image(png(Image.new("1", (4 * ocr.MAX_SIDE, ocr.MAX_SIDE), 1)))
    assert max(image.size) <= 2 * ocr.MAX_SIDE and image.mode in ("L", "RGB")


def test_a_large_jpeg_is_decoded_at_a_reduced_scale() -> None:
    out = io.BytesIO()
    Image.new("RGB", (8 * ocr.MAX_SIDE, 2 * ocr.MAX_SIDE), "white").save(out, "JPEG")
    assert max(ocr.open_image(out.getvalue()).size) <= 2 * ocr.MAX_SIDE


@pytest.mark.parametrize("fmt", ["GIF", "TIFF", "BMP"])
def test_other_formats_under_an_image_name_are_refused(fmt: str) -> None:
    out = io.BytesIO()
    upright().save(out, fmt)
    with pytest.raises(IngestError) as info:
        parse_bytes(out.getvalue(), f"通知-{fmt}.png", max_bytes=LIMIT)
    assert "不是 PNG 或 JPEG 图片" in str(info.value)


def test_a_multi_frame_png_is_refused() -> None:
    out = io.BytesIO()
    upright().save(out, "PNG", save_all=True, append_images=[upright().rotate(180)])
    with pytest.raises(ocr.ImageRefused) as info:
        ocr.open_image(out.getvalue())
    assert "只能识别单页图片" in str(info.value) and "PDF" in str(info.value)
    with pytest.raises(IngestError) as said:  # the reason reaches the person, not the exception's class name
        parse_bytes(out.getvalue(), "两页.png", max_bytes=LIMIT)
    assert "只能识别单页图片" in str(said.value) and "ImageRefused" not in str(said.value)


def test_lines_read_too_unsure_are_named_in_the_upload_report(monkeypatch) -> None:
    from rag_core.documents import reading
    from rag_core.documents.ocr_layout import DroppedLine

    found = ocr.OcrText(["第六条 未经批准的费用一律不予报销。"], 0.98, 40,
                        dropped=[DroppedLine("山邮カ口±。", 0.47, "第六条 未经批准的费用一律不予报销。")])
    monkeypatch.setattr(reading, "recognize", lambda image: found)
    parsed = parse_bytes(png(upright()), "通知.png", max_bytes=LIMIT)
    assert any("识别不可靠，未编入索引" in note and "山邮カ口±。" in note for note in parsed.reading.notes), parsed.reading.notes
    assert "山邮" not in parsed.text


@pytest.mark.parametrize("size", [(1, 100_000), (100_000, 2), (3, 400)])
def test_a_thin_strip_is_refused_before_it_is_decoded(monkeypatch, size: tuple[int, int]) -> None:
    """Shrunk for OCR, a 1-pixel strip has no height left (RapidOCR's ResizeImgError): refused, said why."""
    data = png(Image.new("L", size, 255))

    def no_decoding(self):
        raise AssertionError("decoded a refused image")

    monkeypatch.setattr(Image.Image, "load", no_decoding)
    with pytest.raises(ocr.ImageRefused) as info:
        ocr.open_image(data)
    assert f"图片过于细长（{size[0]}×{size[1]} 像素" in str(info.value) and "裁剪" in str(info.value)


def test_a_thin_strip_upload_gets_the_reason() -> None:
    with pytest.raises(IngestError) as said:
        parse_bytes(png(Image.new("L", (1, 100_000), 255)), "细长.png", max_bytes=LIMIT)
    assert "图片过于细长" in str(said.value)


def test_a_long_page_is_still_read() -> None:
    assert ocr.open_image(png(Image.new("L", (120, 3000), 255))).size[0] >= 1


@pytest.mark.parametrize("mode, key", [("L", 0), ("RGB", (0, 0, 0))])
def test_a_key_colour_transparency_becomes_white(mode: str, key) -> None:
    """A grey or RGB PNG whose tRNS chunk names a transparent colour: those pixels are white, as a viewer shows."""
    image = Image.new(mode, (40, 20), key)
    image.paste(128 if mode == "L" else (128, 128, 128), (0, 0, 10, 10))
    out = io.BytesIO()
    image.save(out, "PNG", transparency=key)
    flat = ocr.on_white(ocr.open_image(out.getvalue())).convert("L")
    assert flat.getpixel((30, 15)) == 255 and flat.getpixel((5, 5)) == 128
