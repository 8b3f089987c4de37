"""Offline OCR for scanned PDF pages and image uploads (RapidOCR, PP-OCR models inside the wheel).

Why RapidOCR: its PyPI wheel carries the detection and recognition models, so OCR
works on a fresh offline machine with no model download and no system package;
the measurements behind the choice are in docs/documents.md (bench/bench_ocr.py).
A page whose characters are recognised with low confidence is not indexed: a
misread 480 that becomes 430 would be quoted as policy. It is reported instead.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OCR_MIN_CONFIDENCE = 0.80  # character-weighted mean recognition score a page needs to be indexed
RENDER_DPI = 200  # scanned pages are rendered at this resolution for OCR
MIN_BOX_SCORE = 0.3  # boxes below this are dropped by the engine (kept above it, they lower the page's mean)
MAX_SIDE = 1400  # pixels; detection time grows with the area; 1000 read 12-pt print as well, 1400 keeps a margin
_ARTICLE = re.compile(r"^(第[0-9〇零一二三四五六七八九十百千两]+[章节条])(?=[^\s　，。、：:（(])")

_engine: Any = None
_engine_lock = threading.Lock()
_progress: ContextVar[Callable[[int, int], None] | None] = ContextVar("ocr_progress", default=None)


@dataclass
class OcrText:
    """One image's text in reading order, and how sure the recogniser was."""

    lines: list[str]
    confidence: float  # character-weighted mean score, 0 when nothing was found
    chars: int
    seconds: float = 0.0

    @property
    def usable(self) -> bool:
        return self.chars > 0 and self.confidence >= OCR_MIN_CONFIDENCE


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


def _reading_order(boxes: list[tuple[float, float, float, str]]) -> list[str]:
    """Boxes (top, bottom, left, text) into lines: a box joins a line it overlaps vertically by half."""
    lines: list[list[tuple[float, float, float, str]]] = []
    for box in sorted(boxes):
        top, bottom = box[0], box[1]
        for line in lines:
            l_top, l_bottom = min(b[0] for b in line), max(b[1] for b in line)
            overlap = min(bottom, l_bottom) - max(top, l_top)
            if overlap > 0.5 * min(bottom - top, l_bottom - l_top):
                line.append(box)
                break
        else:
            lines.append([box])
    lines.sort(key=lambda line: min(b[0] for b in line))
    texts = [" ".join(b[3] for b in sorted(line, key=lambda b: b[2])) for line in lines]
    return [_ARTICLE.sub(r"\1 ", text) for text in texts]  # OCR drops the space in "第三条 员工…"


def recognize(image: Any) -> OcrText:
    """OCR one PIL image."""
    import time

    import numpy as np

    started = time.perf_counter()
    pixels = np.asarray(image.convert("RGB"))
    ocr = engine()
    result = ocr(pixels)
    texts = list(result.txts or ())
    scores = [float(s) for s in (result.scores or ())]
    boxes = [] if result.boxes is None else result.boxes
    found = [
        (float(b[:, 1].min()), float(b[:, 1].max()), float(b[:, 0].min()), t.strip())
        for b, t in zip(boxes, texts, strict=False)
        if t.strip()
    ]
    chars = sum(len(t.strip()) for t in texts)
    weighted = sum(len(t.strip()) * s for t, s in zip(texts, scores, strict=False))
    return OcrText(_reading_order(found), weighted / chars if chars else 0.0, chars, time.perf_counter() - started)


def open_image(data: bytes) -> Any:
    """A decoded image (Pillow refuses decompression bombs by pixel count)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.load()
    return image
