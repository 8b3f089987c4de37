"""Runs and empty tables count toward the Word bound, refused before python-docx parses (review 55d #2).

Only w:p was counted: 6 million empty runs in one paragraph (283 KB) were parsed for 100 s in 886 MB, 3 million
empty tables for 22 s. Now paragraphs, runs and tables are bounded together, and every element start too.
"""

from __future__ import annotations

import glob
import io
import random
import zipfile
from pathlib import Path

import docx
import pytest

from rag_core.documents import docx_format
from rag_core.documents.docx_bounds import count_elements
from rag_core.documents.docx_format import DOCX_MAX_ELEMENTS, DOCX_MAX_PARAGRAPHS, DOCX_MAX_PARTS, docx_lines
from rag_core.errors import IngestError

ROOT = Path(__file__).resolve().parent.parent
NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _with_body(body: str) -> bytes:
    """A real python-docx document whose body is replaced by `body`."""
    buf = io.BytesIO()
    docx.Document().save(buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    xml = src.read("word/document.xml").decode()
    head, tail = xml.split("<w:body>", 1)
    xml = head + "<w:body>" + body + "<w:sectPr" + tail.split("<w:sectPr", 1)[1]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for info in src.infolist():
            dest.writestr(info.filename, xml if info.filename == "word/document.xml" else src.read(info))
    return out.getvalue()


def _many(tag: str, n: int) -> str:
    rnd = random.Random(1)  # varied ids keep the compression ratio under the zip check's, as the reviewer's file
    return "".join(f'<w:{tag} w:rsidR="{rnd.getrandbits(32):08X}"/>' for _ in range(n))


def _never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on python-docx may not load a document: the refusal must come before it."""
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("python-docx loaded a document over the element bounds")

    monkeypatch.setattr(docx, "Document", never)


@pytest.mark.parametrize("body", [
    pytest.param(lambda: "<w:p>" + _many("r", DOCX_MAX_PARTS + 1) + "</w:p>", id="empty-runs-in-one-paragraph"),
    pytest.param(lambda: _many("tbl", DOCX_MAX_PARTS + 1), id="empty-tables"),
])
def test_fix55d_runs_and_tables_are_refused_before_python_docx(body, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _with_body(body())
    _never_parsed(monkeypatch)
    assert len(data) < 3_000_000  # a small upload: the bytes bound never saw it
    with pytest.raises(IngestError) as refused:
        docx_lines(data, "手册.docx")
    assert f"段落、文字块和表格超过 {DOCX_MAX_PARTS:,} 个的上限" in str(refused.value)
    assert "拆分后再上传" in str(refused.value)


def test_fix55d_every_element_counts_whatever_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx_format, "DOCX_MAX_ELEMENTS", 50)
    data = _with_body(f'<x:p xmlns:x="{NS}">' + _many("bookmarkEnd", 60) + "</x:p>")
    _never_parsed(monkeypatch)
    with pytest.raises(IngestError, match="内容元素超过 50 个的上限"):
        docx_lines(data, "手册.docx")


def test_fix55d_runs_under_the_bound_still_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx_format, "DOCX_MAX_PARTS", 40)
    rnd = random.Random(2)
    body = "".join(f"<w:p><w:r><w:t>第{i}条</w:t></w:r><w:r><w:t>{rnd.randrange(99)}天</w:t></w:r></w:p>" for i in range(13))
    assert len(docx_lines(_with_body(body), "手册.docx")[0]) >= 13  # 13 paragraphs + 26 runs = 39
    with pytest.raises(IngestError, match="超过 40 个的上限"):
        docx_lines(_with_body(body + "<w:p/><w:p/>"), "手册.docx")


def test_fix55d_the_largest_real_policy_as_word_fits_the_bounds_many_times() -> None:
    """Each real policy written as Word (a paragraph a line, two runs each): a tenth of every bound at most."""
    largest = max(glob.glob(str(ROOT / "tests/data/real/*/policies/*")), key=lambda p: Path(p).stat().st_size)
    document = docx.Document()
    for line in Path(largest).read_text(encoding="utf-8").splitlines():
        paragraph = document.add_paragraph(line[: len(line) // 2])
        paragraph.add_run(line[len(line) // 2:]).bold = True
    buf = io.BytesIO()
    document.save(buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as archive, archive.open("word/document.xml") as stream:
        counts = count_elements(stream, DOCX_MAX_PARAGRAPHS, DOCX_MAX_PARTS, DOCX_MAX_ELEMENTS)
    assert counts["paragraphs"] * 10 <= DOCX_MAX_PARAGRAPHS
    assert counts["parts"] * 10 <= DOCX_MAX_PARTS and counts["elements"] * 10 <= DOCX_MAX_ELEMENTS, counts
    assert docx_lines(buf.getvalue(), Path(largest).name)[0]
