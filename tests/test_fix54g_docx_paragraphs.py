"""A .docx of many tiny paragraphs: styles resolved once per document, and a paragraph bound before parsing.

Review 54g #1: python-docx's paragraph.style scanned every style (CT_Styles.default_for) at each of several
reads per paragraph: a 94 KB file of 30,000 paragraphs took a minute, an 11 MB one never finished.
"""

from __future__ import annotations

import io
import random
import zipfile

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.styles import CT_Styles

from rag_core.documents import docx_format
from rag_core.documents.docx_format import DOCX_MAX_PARAGRAPHS, docx_lines
from rag_core.errors import IngestError


def _with_body(body: str) -> bytes:
    """A real python-docx document whose body is replaced by `body` (w:p elements)."""
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


def _tiny_paragraphs(n: int, seed: int = 1) -> bytes:
    rnd = random.Random(seed)  # varied text keeps the zip's compression ratio like a real file's
    return _with_body("".join(
        f"<w:p><w:r><w:t>{rnd.choice('abcdefghij')}{rnd.choice('abcdefghij')}{rnd.randrange(100)}</w:t></w:r></w:p>"
        for _ in range(n)))


def _style_scans(monkeypatch: pytest.MonkeyPatch, data: bytes) -> int:
    """How many times parsing asked python-docx for a style by scanning the styles part."""
    calls = {"n": 0}
    for method in ("default_for", "get_by_id"):
        original = getattr(CT_Styles, method)

        def counted(self, *args, _original=original, **kwargs):  # type: ignore[no-untyped-def]
            calls["n"] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(CT_Styles, method, counted)
    docx_lines(data, "手册.docx")
    monkeypatch.undo()
    return calls["n"]


def test_style_scans_do_not_grow_with_paragraphs(monkeypatch: pytest.MonkeyPatch) -> None:
    few = _style_scans(monkeypatch, _tiny_paragraphs(50))
    many = _style_scans(monkeypatch, _tiny_paragraphs(400))
    assert many == few  # per document, not per paragraph (it was 3 scans a paragraph)
    assert many <= 2


def test_styles_read_as_python_docx_reads_them() -> None:
    """Headings, Title, TOC, a list, an unknown style id and a character style's id: same lines as before."""
    document = docx.Document()
    document.add_paragraph("员工手册", style="Title")
    document.add_paragraph("目录一", style=document.styles.add_style("TOC 1", WD_STYLE_TYPE.PARAGRAPH))
    document.add_heading("第一章 总则", level=1)
    document.add_heading("第一节 适用范围", level=2)
    document.add_paragraph("适用于全体员工", style="List Number")
    plain = document.add_paragraph("年假十天")
    plain._p.get_or_add_pPr().style = "NoSuchStyle"  # unknown id: the default paragraph style
    char = document.add_paragraph("病假按规定")
    char._p.get_or_add_pPr().style = "DefaultParagraphFont"  # a character style's id: the default too
    buf = io.BytesIO()
    document.save(buf)
    lines, _ = docx_lines(buf.getvalue(), "手册.docx")
    shown = [(line.text, line.level) for line in lines if line.text.strip()]
    assert ("目录一", None) not in shown and all("目录一" not in text for text, _ in shown)
    assert ("员工手册", 0) in shown
    assert ("第一章 总则", 1) in shown
    assert ("第一节 适用范围", 2) in shown
    assert ("年假十天", None) in shown and ("病假按规定", None) in shown


def test_too_many_paragraphs_refused_before_python_docx(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _tiny_paragraphs(DOCX_MAX_PARAGRAPHS + 1)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("python-docx loaded a document over the paragraph bound")

    monkeypatch.setattr(docx, "Document", never)
    with pytest.raises(IngestError) as refused:
        docx_lines(data, "手册.docx")
    assert f"段落超过 {DOCX_MAX_PARAGRAPHS:,} 个的上限" in str(refused.value)
    assert "拆分后再上传" in str(refused.value)


def test_paragraphs_counted_by_namespace_not_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    """A prefix other than w: names the same paragraphs for python-docx, so it is counted too."""
    monkeypatch.setattr(docx_format, "DOCX_MAX_PARAGRAPHS", 10)
    ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    data = _with_body(f'<x:p xmlns:x="{ns}"><x:r><x:t>ab</x:t></x:r></x:p>' * 11)
    with pytest.raises(IngestError, match="段落超过 10 个的上限"):
        docx_lines(data, "手册.docx")


def test_paragraphs_in_tables_count_and_a_normal_file_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx_format, "DOCX_MAX_PARAGRAPHS", 10)
    document = docx.Document()
    for i in range(5):
        document.add_paragraph(f"第{i + 1}条 内容")
    ok = io.BytesIO()
    document.save(ok)
    assert len(docx_lines(ok.getvalue(), "手册.docx")[0]) >= 5
    document.add_table(rows=3, cols=2)  # six cells, each holding a paragraph: eleven in all
    over = io.BytesIO()
    document.save(over)
    with pytest.raises(IngestError, match="段落超过 10 个的上限"):
        docx_lines(over.getvalue(), "手册.docx")
