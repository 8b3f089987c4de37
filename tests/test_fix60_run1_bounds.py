"""Element budgets over every part of an upload, and clear words for files that are only too deep or too long
(review 60, rev-run #1-#4).

1. Word: only word/document.xml was counted; a 2 MB .docx whose styles.xml inflated to 200 MB of empty elements
   held 4.7 GB and was indexed. Now one budget covers every member of the archive, before python-docx opens it.
2. Excel: the tag budget was reset for each part; 14 sheets of 2.9 million junk elements took 246 s and 5.4 GB.
   Now one budget covers the whole workbook.
3. HTML had no element limit (4.9 million <br>: 73 s, 2.8 GB); now counted streaming before BeautifulSoup.
4. 1,000 nested <div>, Word tables nested 120 deep and a Word paragraph over lxml's 10 MB text node were all
   called 已损坏; the HTML walk is iterative now, and lxml's depth and text-node limits are named.
"""

from __future__ import annotations

import base64
import glob
import io
import random
import zipfile
from html import escape
from pathlib import Path

import bs4
import docx
import openpyxl
import pytest
from fakes import fake_assistant

from rag_core.documents import docx_format, html_bounds, html_format, spreadsheet_format
from rag_core.documents.docx_bounds import count_archive
from rag_core.documents.docx_format import DOCX_MAX_ELEMENTS, DOCX_MAX_PARAGRAPHS, DOCX_MAX_PARTS, docx_lines
from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 20 * 1024 * 1024
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _replace(data: bytes, changes: dict[str, bytes]) -> bytes:
    """The zip `data` with members replaced (or added) from `changes`."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for info in src.infolist():
            dest.writestr(info.filename, changes.get(info.filename, src.read(info.filename)))
        for member, body in changes.items():
            if member not in src.namelist():
                dest.writestr(member, body)
    return out.getvalue()


def _word(*paragraphs: str) -> bytes:
    document = docx.Document()
    document.add_heading("休假制度", 1)
    for text in paragraphs or ("第一条 员工入职满一年后每年享有带薪年假 5 天。",):
        document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def _with_body(body: bytes) -> bytes:
    data = _word()
    xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml")
    start = xml.index(b"<w:body>") + len(b"<w:body>")
    return _replace(data, {"word/document.xml": xml[:start] + body + xml[xml.index(b"<w:sectPr"):]})


def _junk(n: int, seed: int = 1) -> bytes:
    rnd = random.Random(seed)  # varied attributes keep the compression ratio under the zip check's
    return b"".join(b'<w:x w:v="%08X"/>' % rnd.getrandbits(32) for _ in range(n))


def _never_docx(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on python-docx may not open a document: the refusal must come before it."""
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("python-docx opened a document over the element budget")

    monkeypatch.setattr(docx, "Document", never)


# --------------------------------------------------------------------------- 1. Word: every part counts


@pytest.mark.parametrize("member", [
    "word/styles.xml", "word/numbering.xml", "word/header1.xml", "word/settings.xml", "customXml/elsewhere.bin",
])
def test_fix60_run1_elements_of_any_word_part_count_before_python_docx(member, monkeypatch) -> None:
    """The reviewer's file had its junk in styles.xml; python-docx picks parts by content type, so every member
    counts, whatever its name."""
    monkeypatch.setattr(docx_format, "DOCX_MAX_ELEMENTS", 5_000)
    data = _word()
    old = zipfile.ZipFile(io.BytesIO(data))
    if member in old.namelist():
        head, _, _ = old.read(member).rpartition(b"</")
        body = head + _junk(5_000) + b"</" + old.read(member).rpartition(b"</")[2]
    else:
        body = b"<w:hdr " + W_NS.encode() + b">" + _junk(5_000) + b"</w:hdr>"
    data = _replace(data, {member: body})
    _never_docx(monkeypatch)
    with pytest.raises(IngestError, match="内容元素超过 5,000 个的上限"):
        docx_lines(data, "手册.docx")


def test_fix60_run1_the_budget_is_shared_by_the_parts(monkeypatch) -> None:
    """Each part under the bound, together over it."""
    monkeypatch.setattr(docx_format, "DOCX_MAX_ELEMENTS", 5_000)
    wrap = b"<w:hdr " + W_NS.encode() + b">%s</w:hdr>"
    parts = {f"word/header{i}.xml": wrap % _junk(2_000, i) for i in range(1, 4)}
    data = _replace(_word(), parts)
    _never_docx(monkeypatch)
    with pytest.raises(IngestError, match="内容元素超过 5,000 个的上限"):
        docx_lines(data, "手册.docx")


def test_fix60_run1_a_damaged_member_does_not_end_the_count(monkeypatch) -> None:
    """A member whose CRC is wrong, placed first, may not stop the count before the junk after it."""
    monkeypatch.setattr(docx_format, "DOCX_MAX_ELEMENTS", 5_000)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dest:
        dest.writestr("aaa/damaged.xml", b"<a>" + b"<b/>" * 10 + b"</a>")
        src = zipfile.ZipFile(io.BytesIO(_word()))
        for info in src.infolist():
            dest.writestr(info.filename, src.read(info.filename))
        dest.writestr("word/header9.xml", b"<w:hdr " + W_NS.encode() + b">" + _junk(6_000) + b"</w:hdr>")
    data = out.getvalue().replace(b"<b/><b/>", b"<b/><c/>", 1)  # the stored bytes no longer match the CRC
    _never_docx(monkeypatch)
    with pytest.raises(IngestError, match="内容元素超过 5,000 个的上限"):
        docx_lines(data, "手册.docx")


def test_fix60_run1_a_styles_bomb_is_refused_at_the_real_bound(assistant) -> None:
    """The reviewer's shape at the shipped bound: a small file whose styles.xml holds 2 million elements."""
    data = _word()
    styles = zipfile.ZipFile(io.BytesIO(data)).read("word/styles.xml")
    head, _, tail = styles.rpartition(b"</w:styles>")
    pad = base64.b64encode(random.Random(3).randbytes(150_000))
    bomb = _replace(data, {"word/styles.xml": head + b"<!--" + pad + b"-->" + b"<w:x/>" * (DOCX_MAX_ELEMENTS + 1)
                                                  + b"</w:styles>" + tail})
    assert len(bomb) < 1_000_000
    report = assistant.ingest_bytes(bomb, "styles_bomb.docx")
    assert not report.ok and f"内容元素超过 {DOCX_MAX_ELEMENTS:,} 个的上限" in report.error
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]


def test_fix60_run1_a_real_document_fits_the_shared_budget_many_times() -> None:
    """The largest real policy as Word, every part counted: a tenth of each bound at most, and it still reads."""
    largest = max(glob.glob(str(ROOT / "tests/data/real/*/policies/*")), key=lambda p: Path(p).stat().st_size)
    data = _word(*Path(largest).read_text(encoding="utf-8").splitlines())
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        counts = count_archive(archive, DOCX_MAX_PARAGRAPHS, DOCX_MAX_PARTS, DOCX_MAX_ELEMENTS)
    assert counts["elements"] * 10 <= DOCX_MAX_ELEMENTS and counts["parts"] * 10 <= DOCX_MAX_PARTS, counts
    assert len(docx_lines(data, Path(largest).name)[0]) > 100


# --------------------------------------------------------------------------- 2. Excel: one budget per workbook


@pytest.fixture()
def loads(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = openpyxl.load_workbook
    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def _workbook(sheets: int, junk: int) -> bytes:
    wb = openpyxl.Workbook()
    wb.active.title = "补贴"
    wb.active.append(["项目", "标准（元/月）"])
    wb.active.append(["通讯补贴", 200])
    for i in range(1, sheets):
        wb.create_sheet(f"S{i}").append(["餐补", 300])
    buf = io.BytesIO()
    wb.save(buf)
    data = buf.getvalue()
    archive = zipfile.ZipFile(io.BytesIO(data))
    sheets_xml = {m: archive.read(m).replace(b"</worksheet>", b"<extLst>" + b"<x/>" * junk + b"</extLst></worksheet>")
                  for m in archive.namelist() if m.startswith("xl/worksheets/sheet")}
    return _replace(data, sheets_xml)


def test_fix60_run1_sheets_each_under_the_tag_budget_are_refused_together(loads, monkeypatch) -> None:
    monkeypatch.setattr(spreadsheet_format, "MAX_XML_TAGS", 2_000)
    data = _workbook(3, 900)  # each sheet under 2,000 tags, the workbook over
    with pytest.raises(IngestError, match="的内容过多（工作簿各部分共超过 2,000 个 XML 元素）"):
        parse_bytes(data, "补贴.xlsx", max_bytes=LIMIT)
    assert loads == []


def test_fix60_run1_a_workbook_under_the_shared_budget_still_reads(loads, monkeypatch) -> None:
    monkeypatch.setattr(spreadsheet_format, "MAX_XML_TAGS", 20_000)
    parsed = parse_bytes(_workbook(3, 900), "补贴.xlsx", max_bytes=LIMIT)
    assert "通讯补贴" in parsed.text and parsed.reading.sheets == ["补贴", "S1", "S2"]
    assert len(loads) == 1


# --------------------------------------------------------------------------- 3. HTML: an element budget


def _policy_html(lines: list[str]) -> str:
    body = "".join(f"<p><span>{escape(x[: len(x) // 2])}</span><b>{escape(x[len(x) // 2:])}</b></p>" for x in lines)
    return f"<html><head><title>制度</title></head><body><h1>员工手册</h1>{body}</body></html>"


def test_fix60_run1_html_over_the_element_budget_is_refused_before_beautifulsoup(assistant, monkeypatch) -> None:
    monkeypatch.setattr(html_bounds, "MAX_HTML_ELEMENTS", 1_000)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("BeautifulSoup built a page over the element budget")

    monkeypatch.setattr(bs4, "BeautifulSoup", never)
    data = ("<html><body><p>第一条 年假 5 天</p>" + "<br>" * 1_000 + "</body></html>").encode()
    report = assistant.ingest_bytes(data, "tags.html")
    assert not report.ok and "HTML 元素超过 1,000 个的上限" in report.error and "已损坏" not in report.error
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]


def test_fix60_run1_real_policies_as_html_fit_the_element_budget_widely() -> None:
    for path in glob.glob(str(ROOT / "tests/data/real/*/policies/*")):
        text = _policy_html(Path(path).read_text(encoding="utf-8").splitlines())
        assert not html_bounds.too_many_elements(text, html_bounds.MAX_HTML_ELEMENTS // 50), path
    largest = max(glob.glob(str(ROOT / "tests/data/real/*/policies/*")), key=lambda p: Path(p).stat().st_size)
    lines, title = html_format.html_lines(_policy_html(Path(largest).read_text(encoding="utf-8").splitlines()))
    assert title == "制度" and len([x for x in lines if x.text]) > 100


# --------------------------------------------------------------------------- 4. too deep or too long, said so


def test_fix60_run1_deeply_nested_html_is_read_not_called_damaged() -> None:
    page = "<html><body>" + "<div>" * 5_000 + "第一条 年假 5 天" + "</div>" * 5_000 + "<p>第二条 病假 3 天</p></body></html>"
    parsed = parse_bytes(page.encode(), "nested.html", max_bytes=LIMIT)
    assert "第一条 年假 5 天" in parsed.text and "第二条 病假 3 天" in parsed.text


def test_fix60_run1_the_html_walk_reads_as_before() -> None:
    lines, _ = html_format.html_lines("<div>甲<b>乙</b><p>丙</p>丁<br>戊<h2>第二条 休假</h2><ul><li>一</li><li>二</li></ul></div>")
    assert [(x.text, x.level) for x in lines if x.text] == [
        ("甲乙", None), ("丙", None), ("丁", None), ("戊", None), ("第二条 休假", 2), ("一", None), ("二", None)]


def _p(text: str) -> bytes:
    return b"<w:p><w:r><w:t>" + text.encode() + b"</w:t></w:r></w:p>"


def test_fix60_run1_word_tables_nested_too_deep_are_named() -> None:
    x = _p("第一条 年假 5 天。")
    for _ in range(120):
        x = b"<w:tbl><w:tr><w:tc>" + x + _p("x") + b"</w:tc></w:tr></w:tbl>" + _p("")
    with pytest.raises(IngestError) as refused:
        parse_bytes(_with_body(_p("休假制度") + x), "nested.docx", max_bytes=LIMIT)
    assert "嵌套层数过多" in str(refused.value) and "已损坏" not in str(refused.value)


def test_fix60_run1_a_word_paragraph_over_lxmls_text_limit_is_named() -> None:
    text = base64.b64encode(random.Random(5).randbytes(7_700_000)).decode()  # 10.3 MB in one text node
    with pytest.raises(IngestError) as refused:
        parse_bytes(_with_body(_p(text)), "huge.docx", max_bytes=LIMIT)
    assert "单个段落过长，请拆分后再上传" in str(refused.value).replace("（一段文字超过 10 MB）", "")
    assert "已损坏" not in str(refused.value)


def test_fix60_run1_a_recursion_error_anywhere_is_named_not_damaged(monkeypatch) -> None:
    from rag_core.documents import parsing

    def deep(*args: object, **kwargs: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(parsing, "html_lines", deep)
    with pytest.raises(IngestError, match="嵌套层数过多") as refused:
        parse_bytes(b"<p>x</p>", "a.html", max_bytes=LIMIT)
    assert "已损坏" not in str(refused.value)


@pytest.fixture()
def assistant(tmp_path: Path):
    facade = fake_assistant(tmp_path / "store")
    assert facade.ingest_bytes(POLICY.encode(), "leave.md").ok
    return facade
