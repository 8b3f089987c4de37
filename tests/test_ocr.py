"""Scanned PDFs and images read by the bundled OCR: pages rendered from text with a CJK font,
saved as image-only PDFs by Pillow; per-page confidence, unreliable pages reported and
left out of the index, progress per page, and no model fetched at run time."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from rag_core.documents.chunking import chunk_document
from rag_core.documents.ocr import OCR_MIN_CONFIDENCE, reporting_pages
from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError

LIMIT = 20 * 1024 * 1024
FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
NOTICE = ["关于高温津贴发放的通知", "第一条 每年6月至9月在室外作业的员工", "每人每月发放高温津贴300元。", "第二条 室内作业员工每月发放150元。"]
GARBLED = [("第六条 夜班津贴每晚八十元，凭考勤记录发放。", (40, 60)), ("第七条 交通补贴每月三百元，按出勤天数计算。", (52, 72))]


def page_image(lines: list[tuple[str, tuple[int, int]]], size: tuple[int, int] = (1240, 700)) -> Image.Image:
    font = ImageFont.truetype(FONT, 40, index=2)
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    for text, xy in lines:
        draw.text(xy, text, font=font, fill=0)
    return image


def notice_page() -> Image.Image:
    return page_image([(t, (60, 60 + i * 90)) for i, t in enumerate(NOTICE)])


def overprinted_page() -> Image.Image:
    """Two lines printed over each other (a stamp, bleed-through): OCR reads garbage, unsure of it."""
    return page_image(GARBLED, (1240, 300))


def image_pdf(*pages: Image.Image) -> bytes:
    out = io.BytesIO()
    first, *rest = [p.convert("RGB") for p in pages]
    first.save(out, "PDF", resolution=150, save_all=True, append_images=rest)
    return out.getvalue()


@pytest.fixture(scope="module")
def scanned_notice() -> tuple[bytes, object, list[tuple[int, int]]]:
    data = image_pdf(notice_page(), overprinted_page())
    steps: list[tuple[int, int]] = []
    with reporting_pages(lambda done, total: steps.append((done, total))):
        doc = parse_bytes(data, "高温津贴通知.pdf", max_bytes=LIMIT)
    return data, doc, steps


def test_scanned_page_is_read_with_its_confidence(scanned_notice) -> None:
    _, doc, _ = scanned_notice
    first = doc.reading.ocr_pages[0]
    assert first.page == 1 and first.indexed and first.confidence >= OCR_MIN_CONFIDENCE and first.chars > 30
    text = "".join(doc.text.split())
    assert "每人每月发放高温津贴300元" in text and "室内作业员工每月发放150元" in text
    assert any(n.startswith("扫描页已用 OCR 识别：第 1 页（置信度") for n in doc.reading.notes)
    assert all(c.page == 1 for c in chunk_document(doc, 240, 60))


def test_low_confidence_page_is_flagged_not_indexed(scanned_notice) -> None:
    _, doc, _ = scanned_notice
    second = doc.reading.ocr_pages[1]
    assert second.page == 2 and not second.indexed and 0 < second.confidence < OCR_MIN_CONFIDENCE
    assert all(c.page != 2 for c in chunk_document(doc, 240, 60))
    assert any("未编入索引" in n and "第 2 页（置信度" in n for n in doc.reading.notes)


def test_progress_is_reported_per_ocr_page(scanned_notice) -> None:
    _, _, steps = scanned_notice
    assert steps == [(1, 2), (2, 2)]


def test_a_scan_read_only_unreliably_is_refused_with_the_confidence() -> None:
    with pytest.raises(IngestError) as info:
        parse_bytes(image_pdf(overprinted_page()), "模糊.pdf", max_bytes=LIMIT)
    assert "置信度低于 0.80" in str(info.value) and "第 1 页" in str(info.value)


def test_png_upload_is_read_by_ocr() -> None:
    out = io.BytesIO()
    notice_page().save(out, "PNG")
    doc = parse_bytes(out.getvalue(), "通知截图.png", max_bytes=LIMIT)
    assert "高温津贴300元" in "".join(doc.text.split())
    assert doc.reading.ocr_pages[0].indexed
    assert "\n第一条 每年" in doc.text and any(s.path.startswith("第一条") for s in doc.sections)  # OCR drops the space


def test_broken_image_is_refused_plainly() -> None:
    with pytest.raises(IngestError) as info:
        parse_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100), "坏图.png", max_bytes=LIMIT)
    assert "图片无法打开" in str(info.value)


def test_ocr_never_reaches_the_model_download(monkeypatch) -> None:
    """No model download at run time: the models are named by their path inside the installed wheel."""
    import rapidocr.ch_ppocr_rec.main as rec_main
    import rapidocr.inference_engine.onnxruntime.main as ort_main

    from rag_core.documents import ocr

    def refuse(*args, **kwargs):
        raise AssertionError("OCR tried to download a model")

    monkeypatch.setattr(ort_main.DownloadFile, "run", refuse)
    monkeypatch.setattr(rec_main.DownloadFile, "run", refuse)
    monkeypatch.setattr(ocr, "_engine", None)
    found = ocr.recognize(page_image([("第三条 病假工资按本人工资的百分之八十发放。", (40, 40))], (1100, 160)))
    assert "病假工资" in "".join(found.lines)


@pytest.mark.integration
def test_scanned_clause_is_found_by_a_question(store_copy, scanned_notice) -> None:
    from conftest import open_assistant

    data, _, _ = scanned_notice
    assistant = open_assistant(store_copy)
    report = assistant.ingest_bytes(data, "高温津贴通知.pdf")
    assert report.ok, report.error
    assert report.reading is not None and [p.indexed for p in report.reading.ocr_pages] == [True, False]
    assert any("未编入索引" in w for w in report.warnings)
    top = [h.chunk for h in assistant.search("夏天在室外干活，高温津贴每月发多少？").hits[:3]]
    assert any("高温津贴300元" in "".join(c.text.split()) and c.source == "高温津贴通知.pdf" for c in top), top
