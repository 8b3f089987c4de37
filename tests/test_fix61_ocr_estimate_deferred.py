"""The estimate before an upload runs no OCR: it counts the scanned pages (and images), adds their time, says how
many and names those past the OCR cap; the confirmed ingest reads them with its progress stages and its cancel.
OCR is a counting stand-in (no model) (review rev-ocr e6, e10, e12)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from fakes import fake_assistant
from fixtures_files import IMAGE_ONLY, make_pdf
from PIL import Image

from rag_core.documents import pdf_format, reading
from rag_core.documents.ocr import OcrText
from ui.uploads import confirmation_question, estimate_text

OCR_SECONDS_PER_PAGE = getattr(reading, "OCR_SECONDS_PER_PAGE", 9.0)  # tolerant: the test also runs before the fix


@pytest.fixture()
def calls(monkeypatch) -> list[int]:
    seen: list[int] = []

    def read(image):
        seen.append(1)
        line = f"第{len(seen)}条 员工每月通讯补贴{len(seen)}00元，凭发票报销。"
        return OcrText([line], 0.97, len(line))

    monkeypatch.setattr(pdf_format, "recognize", read)
    monkeypatch.setattr(reading, "recognize", read)
    return seen


@pytest.fixture()
def facade(tmp_path: Path):
    return fake_assistant(tmp_path / "store")


def png() -> bytes:
    out = io.BytesIO()
    Image.new("L", (400, 120), 255).save(out, "PNG")
    return out.getvalue()


def test_the_estimate_counts_scanned_pages_and_the_ingest_reads_them_with_progress(facade, calls) -> None:
    data = make_pdf([["Travel policy: hotels up to 500 yuan a night."], IMAGE_ONLY, IMAGE_ONLY, IMAGE_ONLY])
    estimate = facade.estimate_ingest(data, "补贴.pdf")
    assert estimate.ok and calls == []  # nothing recognised before anyone confirms
    assert estimate.ocr_pages == 3 and estimate.seconds >= 3 * OCR_SECONDS_PER_PAGE
    assert "3 页扫描页" in estimate_text([estimate])
    stages: list[str] = []
    report = facade.ingest_bytes(data, "补贴.pdf", progress=lambda stage, fraction: stages.append(stage))
    assert report.ok, report.error
    assert len(calls) == 3 and [s for s in stages if "识别扫描页" in s] == [f"OCR 识别扫描页 {i}/3" for i in (1, 2, 3)]
    assert "通讯补贴300元" in "".join(c.text for c in facade.document_chunks("补贴"))


def test_scanned_pages_past_the_cap_are_named_in_the_estimate(facade, calls, monkeypatch) -> None:
    monkeypatch.setattr(pdf_format, "MAX_OCR_PAGES", 2)
    estimate = facade.estimate_ingest(make_pdf([IMAGE_ONLY] * 5), "扫描.pdf")
    assert calls == [] and estimate.ok and estimate.ocr_pages == 2 and estimate.needs_confirmation
    assert "另有 3 页扫描页（第 3–5 页）超过每个文件 OCR 2 页的上限，不会识别" in estimate.ocr_skipped
    question = confirmation_question([estimate])
    assert question is not None and "2 页扫描页导入时 OCR 识别" in question and "第 3–5 页" in question


def test_a_long_scan_asks_before_it_starts(facade, calls) -> None:
    pages = int(facade._settings.ingest_confirm_seconds // OCR_SECONDS_PER_PAGE) + 1
    estimate = facade.estimate_ingest(make_pdf([IMAGE_ONLY] * pages), "长扫描件.pdf")
    assert calls == [] and estimate.needs_confirmation and estimate.ocr_pages == pages


def test_a_batch_of_images_is_recognised_once_each(facade, calls) -> None:
    files = [(f"通知{i}.png", png()) for i in range(1, 6)]
    estimates = [facade.estimate_ingest(data, name) for name, data in files]
    assert calls == [] and all(e.ok and e.ocr_pages == 1 for e in estimates)
    for name, data in files:
        assert facade.ingest_bytes(data, name).ok
    assert len(calls) == 5


def test_cancel_stops_between_ocr_pages_with_nothing_written(facade, calls) -> None:
    cancel = threading.Event()
    stages: list[str] = []

    def step(stage: str, fraction: float) -> None:
        stages.append(stage)
        if "识别扫描页 1/" in stage:
            cancel.set()

    report = facade.ingest_bytes(make_pdf([IMAGE_ONLY] * 4), "扫描.pdf", progress=step, cancel=cancel)
    assert not report.ok and "导入已取消" in report.error
    assert len(calls) == 2  # the page being read when 取消导入 came ends; no more are read
    assert facade.list_documents() == []


def test_the_command_line_says_how_many_scanned_pages_it_will_recognise(facade, calls, tmp_path, capsys) -> None:
    import argparse

    from rag_core.cli import documents as cli

    path = tmp_path / "扫描.pdf"
    path.write_bytes(make_pdf([IMAGE_ONLY] * 2))
    args = argparse.Namespace(files=[str(path)], audience=None, doc_id=None, effective_date=None, json=False,
                              estimate=True)
    assert cli.ingest(args, facade) == 0 and calls == []
    assert "另有 2 页扫描页导入时 OCR 识别" in capsys.readouterr().out
    args.estimate = False  # a short scan still says, before the pages are recognised, what it will do
    assert cli.ingest(args, facade) == 0 and len(calls) == 2
    said = capsys.readouterr()
    assert "另有 2 页扫描页导入时 OCR 识别" in said.err and "已索引" in said.out
