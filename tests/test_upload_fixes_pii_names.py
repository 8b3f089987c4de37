"""Personal data in an uploaded file's name is masked wherever the page, a report or a refusal shows it."""

from __future__ import annotations

from fakes import fake_assistant
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from test_upload_fixes_support import facade, page, policy, submit  # noqa: F401 (fixture)

import ui.uploads
from rag_core.types import Principal

NAME = "张三_13812345678_离职证明.md"
PHONE = "13812345678"


def test_progress_label_masks_the_name(facade, monkeypatch):  # noqa: F811
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)  # the desktop default
    seen: list[str] = []
    ui.uploads.ingest_uploads(facade, [(NAME, policy(3))], progress=lambda text, fraction: seen.append(text))
    assert seen and not any(PHONE in text for text in seen)


def test_unexpected_error_is_masked_and_in_chinese(facade, monkeypatch):  # noqa: F811
    monkeypatch.setattr(ui.uploads, "actor", lambda: None)

    def boom(*args, **kwargs):
        raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(facade, "ingest_bytes", boom)
    (report,) = ui.uploads.ingest_uploads(facade, [(NAME, policy(3))])
    assert PHONE not in report.filename + report.error
    assert "导入时出现意外错误，这份文件可能没有导入完成" in report.error and "CUDA" not in report.error


def test_interrupted_message_masks_the_name(facade, monkeypatch):  # noqa: F811
    real = facade.ingest_bytes

    def ingest_bytes(data, name, *, progress=None, **kw):
        def step(label, fraction):
            raise StopException()  # 取消导入 clicked: the first bar update stops the run

        return real(data, name, progress=step, **kw)

    monkeypatch.setattr(facade, "ingest_bytes", ingest_bytes)
    at = submit(page(), [(NAME, policy(3))])
    at.run()
    said = [i.value for i in at.info]
    assert any("没有导入" in s for s in said) and not any(PHONE in s for s in said)


def test_refusals_of_a_document_hr_may_not_replace_mask_the_name(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(policy(), "13900000000_薪酬.md", audience=["managers"]).ok  # admin: managers only
    hr = Principal(user="王芳", role="hr")
    estimate = a.estimate_ingest(policy(), "13900000000_薪酬.md", actor=hr)
    report = a.ingest_bytes(policy(), "13900000000_薪酬.md", actor=hr)
    assert not estimate.ok and not report.ok and "没有权限" in report.error
    assert "13900000000" not in estimate.filename + estimate.error + report.filename + report.error


def test_a_file_too_large_is_refused_with_its_name_masked(tmp_path):
    a = fake_assistant(tmp_path / "s", max_file_mb=1)
    path = tmp_path / NAME
    path.write_bytes(b"x" * (2 * 1048576))
    report, estimate = a.ingest_file(path), a.estimate_file(path)
    assert not report.ok and not estimate.ok
    assert PHONE not in report.filename + report.error + estimate.filename + estimate.error
