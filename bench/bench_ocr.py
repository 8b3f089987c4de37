"""Which OCR reads a scanned HR notice best, and how fast, on this machine?

Renders a few A4 pages of policy text with a CJK font (the ground truth is known),
degrades copies the way a office scanner does (a slight skew, blur, speckle, grey
paper, JPEG), then reads every page with each candidate and prints characters right
(1 − edit distance / length, spaces ignored) and seconds per page:

    .venv/bin/python bench/bench_ocr.py            # RapidOCR settings and Debian tesseract (if installed)
    .venv/bin/python bench/bench_ocr.py --pages 2  # quicker
    .venv/bin/python bench/bench_ocr.py --ingest   # also: one scanned page through the whole upload (e5, temp store)

The figures in docs/documents.md come from this script.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SERIF = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
PAGES = [
    [
        "关于调整员工差旅住宿标准的通知",
        "各部门：",
        "为规范差旅费用管理，经公司研究决定，自2019年7月1日起调整差旅住宿标准。",
        "第一条 员工赴一类城市出差，住宿费每人每晚不超过600元。",
        "第二条 赴二类城市出差，住宿费每人每晚不超过450元。",
        "第三条 赴其他城市出差，住宿费每人每晚不超过350元。",
        "第四条 伙食补助按出差自然天数计算，每人每天100元。",
        "第五条 超出标准的部分由个人承担，特殊情况须经总经理批准。",
    ],
    [
        "关于高温津贴发放的通知",
        "第一条 每年6月至9月，在室外作业的员工每人每月发放高温津贴300元。",
        "第二条 在室内作业但工作场所温度高于33摄氏度的，每人每月发放150元。",
        "第三条 高温津贴随当月工资一并发放，不计入加班工资计算基数。",
        "第四条 员工请病假、事假超过10天的，当月不发放高温津贴。",
        "第五条 本通知由人力资源部负责解释，自发布之日起执行。",
    ],
    [
        "试用期管理规定（摘录）",
        "第八条 劳动合同期限三个月以上不满一年的，试用期不得超过一个月。",
        "第九条 劳动合同期限一年以上不满三年的，试用期不得超过二个月。",
        "第十条 三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月。",
        "第十一条 试用期工资不得低于本单位相同岗位最低档工资的百分之八十。",
        "第十二条 试用期满考核合格的，由部门负责人填写转正审批表。",
    ],
]


def render(lines: list[str], dpi: int, font_path: str) -> object:
    from PIL import Image, ImageDraw, ImageFont

    scale = dpi / 200
    font = ImageFont.truetype(font_path, int(34 * scale), index=2)
    page = Image.new("L", (int(1654 * scale), int(2339 * scale)), 255)
    draw = ImageDraw.Draw(page)
    for i, line in enumerate(lines):
        draw.text((int(150 * scale), int((200 + i * 75) * scale)), line, font=font, fill=0)
    return page


def scanned(page: object, seed: int) -> object:
    """A copy as an office scanner makes it: skew, blur, grey paper, speckle, JPEG."""
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    img = page.rotate(rng.uniform(-1.0, 1.0), fillcolor=255, resample=Image.BICUBIC)  # type: ignore[attr-defined]
    img = img.filter(ImageFilter.GaussianBlur(0.9))
    img = img.point(lambda v: int(v * 0.82 + 30))
    pixels = img.load()
    w, h = img.size
    for _ in range(w * h // 400):
        x, y = rng.randrange(w), rng.randrange(h)
        pixels[x, y] = rng.choice((0, 90, 255))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=35)
    return Image.open(io.BytesIO(out.getvalue())).convert("L")


def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def accuracy(truth: str, read: str) -> float:
    truth, read = "".join(truth.split()), "".join(read.split())
    return max(0.0, 1 - edit_distance(truth, read) / max(1, len(truth)))


def rapidocr_reader(max_side: int):
    from rapidocr import RapidOCR

    from rag_core.documents.ocr import MIN_BOX_SCORE

    params = {"Global.log_level": "error", "Global.text_score": MIN_BOX_SCORE, "Global.max_side_len": max_side}
    engine = RapidOCR(params=params)

    def read(image: object) -> tuple[str, float]:
        import numpy as np

        result = engine(np.asarray(image.convert("RGB")))  # type: ignore[attr-defined]
        texts, scores = list(result.txts or ()), list(result.scores or ())
        chars = sum(len(t) for t in texts)
        return "\n".join(texts), (sum(len(t) * s for t, s in zip(texts, scores, strict=False)) / chars if chars else 0.0)

    return read


def tesseract_reader():
    def read(image: object) -> tuple[str, float]:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "page.png")
            image.save(path)  # type: ignore[attr-defined]
            done = subprocess.run(
                ["tesseract", path, "stdout", "-l", "chi_sim", "--psm", "6"], capture_output=True, text=True, check=True
            )
        return done.stdout, float("nan")

    return read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=len(PAGES))
    parser.add_argument("--ingest", action="store_true", help="also time one scanned page through the whole upload")
    args = parser.parse_args()
    pages = PAGES[: args.pages]
    from rag_core.documents.ocr import MAX_SIDE

    readers = [
        (f"RapidOCR 3.10 (PP-OCRv6 small), longest side {side} px{' (used)' if side == MAX_SIDE else ''}",
         rapidocr_reader(side), 200)
        for side in (2000, MAX_SIDE, 1000)
    ]
    if shutil.which("tesseract"):
        readers.append(("tesseract 5 chi_sim (Debian), 200 dpi", tesseract_reader(), 200))
    load = os.getloadavg()[0]
    print(f"{len(pages)} pages, {os.cpu_count()} cores, load average {load:.2f} at start")
    print("| engine | pages | chars right (clean) | chars right (scanned) | mean confidence (scanned) | s/page |")
    print("|---|---|---|---|---|---|")
    for label, read, dpi in readers:
        clean, dirty, confidence, seconds = [], [], [], []
        for n, lines in enumerate(pages):
            truth = "".join(lines)
            for kind, image in (("clean", render(lines, dpi, FONT)), ("scan", scanned(render(lines, dpi, SERIF), n))):
                started = time.perf_counter()
                text, score = read(image)
                seconds.append(time.perf_counter() - started)
                (clean if kind == "clean" else dirty).append(accuracy(truth, text))
                if kind == "scan":
                    confidence.append(score)
        mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
        print(
            f"| {label} | {len(pages)} | {mean(clean):.3f} | {mean(dirty):.3f} | {mean(confidence):.3f} |"
            f" {mean(seconds):.2f} |"
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    if args.ingest:
        ingest_row(pages[0])


def ingest_row(lines: list[str]) -> None:
    """Seconds to upload one scanned page and the same page with a text layer (parse, OCR, embed, index)."""
    from rag_core.assistant import Assistant
    from rag_core.settings import Settings

    scan = io.BytesIO()
    scanned(render(lines, 200, SERIF), 0).convert("RGB").save(scan, "PDF", resolution=200)
    text_pdf = "\n\n".join(lines).encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        assistant = Assistant(Settings(data_dir=Path(tmp)))
        assistant.ingest_bytes("预热。".encode(), "warm.txt")  # load the OCR engine and e5 before timing
        from rag_core.documents.ocr import engine

        engine()
        print("| upload of one page | seconds | chunks | OCR confidence |")
        print("|---|---|---|---|")
        for label, data, name in (("scanned page (image PDF, 200 dpi)", scan.getvalue(), "scan.pdf"),
                                  ("the same text as .txt", text_pdf, "text.txt")):
            started = time.perf_counter()
            report = assistant.ingest_bytes(data, name)
            seconds = time.perf_counter() - started
            pages = report.reading.ocr_pages if report.reading else []
            shown = ", ".join(f"{p.confidence:.2f}" for p in pages) or "—"
            print(f"| {label} | {seconds:.1f} | {report.chunk_count} | {shown} |")


if __name__ == "__main__":
    main()
