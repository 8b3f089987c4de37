"""Offline OCR for scanned PDF pages and image uploads (RapidOCR, PP-OCR models inside the wheel).

Why RapidOCR: its PyPI wheel carries the detection and recognition models, so OCR
works on a fresh offline machine with no model download and no system package;
the measurements behind the choice are in docs/documents.md (bench/bench_ocr.py).
A page whose characters are recognised with low confidence is not indexed: a
misread 480 that becomes 430 would be quoted as policy. It is reported instead; so is
each line of an indexed page read below the same bar (left out, named in the report).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .ocr_layout import Box, DroppedLine, dropped_note, read_boxes

OCR_MIN_CONFIDENCE = 0.80  # character-weighted mean score a page needs to be indexed, and each line of it
RENDER_DPI = 200  # scanned pages are rendered at this resolution for OCR
MIN_BOX_SCORE = 0.3  # boxes below this are dropped by the engine (kept above it, they lower the page's mean)
MAX_SIDE = 1400  # pixels; detection time grows with the area; 1000 read 12-pt print as well, 1400 keeps a margin
MAX_PIXELS = 40_000_000  # an uploaded image's pixels once decoded (A4 at 600 dpi is 35 M); see open_image
MAX_ASPECT = 30  # long side / short side: beyond, the short side brought to MAX_SIDE / 30 px holds no legible line
# (under 16 px RapidOCR fails; a thin strip is also blown up to 736 px across for detection: gigabytes)
IMAGE_FORMATS = ("PNG", "JPEG")  # what the .png/.jpg/.jpeg extensions promise; a TIFF or GIF renamed is refused

_engine: Any = None
_engine_lock = threading.Lock()
_progress: ContextVar[Callable[[int, int], None] | None] = ContextVar("ocr_progress", default=None)


@dataclass
class OcrText:
    """One image's text in reading order, and how sure the recogniser was."""

    lines: list[str]  # only the lines read at OCR_MIN_CONFIDENCE or better
    confidence: float  # character-weighted mean score of every box, 0 when nothing was found
    chars: int
    seconds: float = 0.0
    dropped: list[DroppedLine] = field(default_factory=list)  # lines read below the bar: not in `lines`

    @property
    def usable(self) -> bool:
        return self.chars > 0 and self.confidence >= OCR_MIN_CONFIDENCE

    def dropped_note(self, page: int) -> str | None:
        """For the reading report: the lines of a usable page left out as unreadable, or None."""
        return dropped_note(page, self.dropped) if self.usable and self.dropped else None


@contextmanager
def reporting_pages(callback: Callable[[int, int], None]) -> Iterator[None]:
    """Within this block, OCR calls `callback(done, total)` after each page (the upload's progress bar)."""
    token = _progress.set(callback)
    try:
        yield
    finally:
        _progress.reset(token)


def report_page(done: int, total: int) -> None:
    callback = _progress.get()
    if callback is not None:
        callback(done, total)


MODELS = {"Det": "PP-OCRv6_det_small.onnx", "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx", "Rec": "PP-OCRv6_rec_small.onnx"}


def engine() -> Any:
    """The recogniser, loaded once per process (about 1.5 s) from the models in the wheel.

    Each model is named by its path in the installed package, so RapidOCR's download
    step is never reached: a missing model is an error here, never a fetch.
    """
    global _engine
    with _engine_lock:
        if _engine is None:
            import rapidocr
            from rapidocr import RapidOCR

            folder = Path(rapidocr.__file__).parent / "models"
            params: dict[str, Any] = {f"{part}.model_path": str(folder / name) for part, name in MODELS.items()}
            params.update({"Global.log_level": "error", "Global.text_score": MIN_BOX_SCORE, "Global.max_side_len": MAX_SIDE})
            missing = [name for name in MODELS.values() if not (folder / name).is_file()]
            if missing:
                raise RuntimeError(f"OCR 模型文件缺失：{'、'.join(missing)}（请重新运行 scripts/setup.sh 安装 rapidocr）")
            _engine = RapidOCR(params=params)
        return _engine


def recognize(image: Any) -> OcrText:
    """OCR one PIL image."""
    import time

    import numpy as np

    started = time.perf_counter()
    pixels = np.asarray(on_white(image).convert("RGB"))
    ocr = engine()
    result = ocr(pixels)
    texts = list(result.txts or ())
    scores = [float(s) for s in (result.scores or ())]
    boxes = [] if result.boxes is None else result.boxes
    found = [
        Box(float(b[:, 1].min()), float(b[:, 1].max()), float(b[:, 0].min()), float(b[:, 0].max()), t.strip(), s)
        for b, t, s in zip(boxes, texts, scores, strict=False)
        if t.strip()
    ]
    lines, dropped = read_boxes(found, OCR_MIN_CONFIDENCE)
    chars = sum(len(t.strip()) for t in texts)
    weighted = sum(len(t.strip()) * s for t, s in zip(texts, scores, strict=False))
    return OcrText(lines, weighted / chars if chars else 0.0, chars, time.perf_counter() - started, dropped)


def on_white(image: Any) -> Any:
    """An 8-bit L or RGB image as a viewer shows it: transparent pixels on white (dropping alpha would
    make them black), 16-bit grey scaled to 8 bits (converting clips everything above 255 to white)."""
    from PIL import Image

    if image.mode in ("P", "L", "RGB") and "transparency" in image.info:  # a PNG's tRNS key colour or index
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA", "La", "RGBa"):
        image = image.convert("RGBA")
        page = Image.new("RGB", image.size, (255, 255, 255))
        page.paste(image, mask=image.getchannel("A"))
        return page
    if image.mode.startswith("I;16"):
        return image.convert("I").point(lambda v: v * (1 / 257)).convert("L")
    return image if image.mode in ("L", "RGB") else image.convert("L" if image.mode == "1" else "RGB")


class ImageRefused(ValueError):
    """An upload that is an image but not one this reader takes; the message says why, in Chinese."""


_ORIENTATION = {2: "FLIP_LEFT_RIGHT", 3: "ROTATE_180", 4: "FLIP_TOP_BOTTOM", 5: "TRANSPOSE", 6: "ROTATE_270",
                7: "TRANSVERSE", 8: "ROTATE_90"}  # EXIF Orientation -> the turn that shows it upright


def open_image(data: bytes) -> Any:
    """A decoded PNG or JPEG of one page, upright as its EXIF says, at most 2 x MAX_SIDE on its long side.

    The pixel count is checked before decoding (a 60 KB PNG can be 169 M pixels: 1.9 GB once
    converted); a JPEG is decoded at a reduced scale when that still leaves OCR its full detail.
    """
    import io
    import math

    from PIL import Image

    image = Image.open(io.BytesIO(data), formats=IMAGE_FORMATS)
    if getattr(image, "n_frames", 1) > 1 and image.format != "MPO":  # MPO: a phone's photo plus its previews
        raise ImageRefused(f"图片有 {image.n_frames} 帧（页），只能识别单页图片；多页扫描请存为 PDF 上传")
    if image.format in ("JPEG", "MPO"):
        image.draft(image.mode, (2 * MAX_SIDE, 2 * MAX_SIDE))
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ImageRefused(f"图片尺寸过大（{width}×{height} 像素），超过 {MAX_PIXELS // 10_000} 万像素的上限；"
                           "请缩小后再上传")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageRefused(f"图片过于细长（{width}×{height} 像素，长宽比超过 {MAX_ASPECT}:1），缩小到可识别的大小后"
                           "文字不足一行高，无法识别；请裁剪成正常页面比例后再上传")
    image.load()
    orientation = image.getexif().get(0x0112, 1)  # after load: a PNG may keep its EXIF after the pixels
    if max(image.size) > 2 * MAX_SIDE:
        image = on_white(image).reduce(math.ceil(max(image.size) / (2 * MAX_SIDE)))
    if turn := _ORIENTATION.get(orientation):
        image = image.transpose(getattr(Image.Transpose, turn))
    return image
