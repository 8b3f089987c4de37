"""A stop (取消导入, the page left) can only land before the new version goes live: no progress call after the switch."""

from __future__ import annotations

from fakes import fake_assistant
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from test_upload_fixes_support import facade, page, policy, submit, text_of  # noqa: F401 (fixture)


def test_no_progress_after_the_version_is_live(tmp_path):
    a = fake_assistant(tmp_path / "s")

    def progress(label: str, fraction: float) -> None:  # the page's bar: a click makes Streamlit stop here
        if a.list_documents():
            raise StopException()

    report = a.ingest_bytes(policy(30), "年假制度.md", progress=progress)
    assert report.ok and [d.version for d in a.list_documents()] == [1]
    (entry,) = [e for e in a.audit_entries(action="document.upload")]
    assert entry.outcome == "ok"


def test_page_never_says_nothing_written_for_a_live_version(facade, monkeypatch):  # noqa: F811
    real = facade.ingest_bytes

    def ingest_bytes(data, name, *, progress=None, **kw):
        def step(label, fraction):  # 取消导入 clicked while the vectors were written
            progress(label, fraction)
            if facade.list_documents():
                raise StopException()

        return real(data, name, progress=step, **kw)

    monkeypatch.setattr(facade, "ingest_bytes", ingest_bytes)
    at = submit(page(), [("年假制度.md", policy(3))])
    at.run()
    assert facade.list_documents()
    assert "没有导入，也没有写入任何内容" not in text_of(at)
