"""Review 381: what real Word and PDF files carry that the reader missed.

Word numbers articles through the chapters when the list says so (w:lvlRestart), reads a list kept
in a list style (w:numStyleLink), reads a body embedded as an HTML part (w:altChunk), and says when
pictures were not read; a tool's default metadata title does not replace the policy's heading.
"""

from __future__ import annotations

import io

import docx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from fixtures_files import make_pdf

from rag_core.documents.parsing import parse_bytes

W = nsdecls("w")
LIMIT = 10 * 1024 * 1024


def _parse(d: docx.Document, name: str = "制度.docx"):
    out = io.BytesIO()
    d.save(out)
    return parse_bytes(out.getvalue(), name, max_bytes=LIMIT)


def _level(ilvl: int, text: str, restart: str = "") -> str:
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/>{restart}'
            f'<w:lvlText w:val="{text}"/><w:suff w:val="space"/></w:lvl>')


def _list_document(levels: str, *, style_link: bool = False) -> docx.Document:
    d = docx.Document()
    numbering = d.part.numbering_part.element
    for element in list(numbering):
        numbering.remove(element)
    if style_link:  # the levels live in the list style's own list; the list used only links to it
        numbering.append(parse_xml(f'<w:abstractNum {W} w:abstractNumId="3"><w:styleLink w:val="章条"/>'
                                   f'{levels}</w:abstractNum>'))
        numbering.append(parse_xml(f'<w:abstractNum {W} w:abstractNumId="4"><w:numStyleLink w:val="章条"/>'
                                   '</w:abstractNum>'))
        numbering.append(parse_xml(f'<w:num {W} w:numId="5"><w:abstractNumId w:val="4"/></w:num>'))
    else:
        numbering.append(parse_xml(f'<w:abstractNum {W} w:abstractNumId="3">{levels}</w:abstractNum>'))
        numbering.append(parse_xml(f'<w:num {W} w:numId="5"><w:abstractNumId w:val="3"/></w:num>'))
    d.add_heading("员工奖惩制度", 0)
    return d


def _item(d: docx.Document, text: str, ilvl: int) -> None:
    p = d.add_paragraph(text)
    p._p.get_or_add_pPr().append(
        parse_xml(f'<w:numPr {W}><w:ilvl w:val="{ilvl}"/><w:numId w:val="5"/></w:numPr>'))


def _chapters(d: docx.Document) -> str:
    for text, ilvl in [("总则", 0), ("为规范员工行为，制定本制度。", 1), ("本制度适用于全体员工。", 1),
                       ("奖励", 0), ("年度优秀员工奖励五千元。", 1), ("处分", 0), ("旷工一天扣发当日工资。", 1)]:
        _item(d, text, ilvl)
    return _parse(d).text


def test_articles_that_never_restart_count_through_the_chapters() -> None:
    text = _chapters(_list_document(_level(0, "第%1章") + _level(1, "第%2条", '<w:lvlRestart w:val="0"/>')))
    assert "第三条 年度优秀员工奖励五千元" in text and "第四条 旷工一天" in text, text


def test_articles_restart_at_each_chapter_by_default() -> None:
    text = _chapters(_list_document(_level(0, "第%1章") + _level(1, "第%2条")))
    assert "第一条 年度优秀员工奖励五千元" in text and "第一条 旷工一天" in text, text


def test_a_level_restarts_only_after_the_levels_its_restart_names() -> None:
    # articles restart at a chapter (level 1) but run on through its sections (level 2)
    d = _list_document(_level(0, "第%1章") + _level(1, "第%2节") + _level(2, "第%3条", '<w:lvlRestart w:val="1"/>'))
    for text, ilvl in [("总则", 0), ("目的", 1), ("为规范员工行为。", 2), ("范围", 1), ("适用于全体员工。", 2),
                       ("奖励", 0), ("年度奖", 1), ("年度优秀员工奖励五千元。", 2)]:
        _item(d, text, ilvl)
    text = _parse(d).text
    assert "第二条 适用于全体员工" in text and "第一条 年度优秀员工奖励五千元" in text, text


def test_a_list_kept_in_a_list_style_keeps_its_labels() -> None:
    d = _list_document(_level(0, "第%1章") + _level(1, "第%2条"), style_link=True)
    text = _chapters(d)
    assert "第二章 奖励" in text and "第一条 年度优秀员工奖励五千元" in text, text


def _with_embedded(kind: str, blob: bytes, name: str) -> docx.Document:
    d = docx.Document()
    d.add_paragraph("关于印发《差旅管理办法》的通知")
    part = Part(PackURI(f"/word/{name}"), kind, blob, d.part.package)
    rid = d.part.relate_to(part, RT.A_F_CHUNK)
    body = d.element.body
    body.insert(len(body) - 1, parse_xml(f'<w:altChunk {nsdecls("w", "r")} r:id="{rid}"/>'))
    return d


POLICY_HTML = ("<html><head><meta charset='utf-8'></head><body><h1>差旅管理办法</h1>"
               "<p>第一条 一线城市住宿标准每晚六百元。</p><p>第二条 出差补贴每天一百元。</p></body></html>")


def test_a_body_embedded_as_an_html_part_is_read_and_said() -> None:
    parsed = _parse(_with_embedded("text/html", POLICY_HTML.encode(), "policy.html"))
    assert "一线城市住宿标准每晚六百元" in parsed.text and "出差补贴每天一百元" in parsed.text
    assert any("嵌入" in note for note in parsed.reading.notes), parsed.reading.notes


def test_a_body_embedded_as_a_web_archive_is_read() -> None:
    mht = ("MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n--b\r\n"
           "Content-Type: text/html; charset=\"utf-8\"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
           f"{POLICY_HTML}\r\n--b--\r\n").encode()
    parsed = _parse(_with_embedded("message/rfc822", mht, "policy.mht"))
    assert "一线城市住宿标准每晚六百元" in parsed.text


def test_an_embedded_part_of_another_kind_is_named_as_not_read() -> None:
    parsed = _parse(_with_embedded("application/rtf", b"{\\rtf1 abc}", "policy.rtf"))
    assert any("嵌入的内容未能读取" in note for note in parsed.reading.notes), parsed.reading.notes


def test_pictures_in_the_text_are_said_as_not_read() -> None:
    from PIL import Image

    image = io.BytesIO()
    Image.new("RGB", (40, 20), "white").save(image, format="PNG")
    d = docx.Document()
    d.add_heading("请假规定", 1)
    d.add_paragraph("以下为请假天数表：")
    d.add_picture(io.BytesIO(image.getvalue()))
    notes = _parse(d).reading.notes
    assert any("1 张图片" in note for note in notes), notes
    d = docx.Document()
    d.add_paragraph("第一条 病假须提供医院证明。")
    assert not any("图片" in note for note in _parse(d).reading.notes)


def test_a_tools_default_title_gives_way_to_the_policys_heading() -> None:
    page = ["员工请假管理规定", "第一条 病假须提供医院证明。", "第二条 事假每年不超过十天。"]
    for title in ("CamScanner 01-05-2024 10.20", "Microsoft Word - 文档1.docx"):
        assert parse_bytes(make_pdf([page], title=title), "请假.pdf", max_bytes=LIMIT).title == "员工请假管理规定"
    kept = parse_bytes(make_pdf([page], title="请假管理规定（2024 修订）"), "请假.pdf", max_bytes=LIMIT)
    assert kept.title == "请假管理规定（2024 修订）"


WORD_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def _word_bytes(text: str) -> bytes:
    inner = docx.Document()
    inner.add_paragraph(text)
    out = io.BytesIO()
    inner.save(out)
    return out.getvalue()


def test_a_word_file_merged_in_whole_is_read_not_refused() -> None:
    # the OpenXML SDK's merge: the embedded .docx typed as a main document part (review 383 #3)
    parsed = _parse(_with_embedded(WORD_MAIN, _word_bytes("第一条 一线城市住宿标准每晚六百元。"), "afchunk1.dat"))
    assert "关于印发《差旅管理办法》的通知" in parsed.text and "一线城市住宿标准每晚六百元" in parsed.text
    damaged = _parse(_with_embedded(WORD_MAIN, b"PK\x03\x04 not a package", "afchunk2.dat"))
    assert "关于印发" in damaged.text
    assert any("嵌入的内容未能读取" in note for note in damaged.reading.notes), damaged.reading.notes


def test_an_embedded_part_in_a_table_cell_is_named_as_not_read() -> None:
    d = _with_embedded("text/html", POLICY_HTML.encode(), "policy.html")
    body = d.element.body
    chunk = next(e for e in body if e.tag.endswith("}altChunk"))
    body.remove(chunk)
    table = d.add_table(rows=1, cols=1)
    table.cell(0, 0)._tc.append(chunk)
    parsed = _parse(d)
    assert any("1 段嵌入的内容未能读取" in note for note in parsed.reading.notes), parsed.reading.notes


def test_a_default_title_sharing_one_word_with_the_text_still_gives_way() -> None:
    page = ["员工请假管理规定", "第一条 本文档所称请假，指员工经批准暂停工作。", "第二条 请假申请须附扫描件。"]
    for title in ("扫描全能王 2024-01-05 10.20", "文档1"):
        assert parse_bytes(make_pdf([page], title=title), "请假.pdf", max_bytes=LIMIT).title == "员工请假管理规定"


def _merged(outer_text: str, blob: bytes, kind: str = WORD_MAIN, times: int = 1) -> bytes:
    d = docx.Document()
    d.add_paragraph(outer_text)
    rid = d.part.relate_to(Part(PackURI("/word/afchunk1.dat"), kind, blob, d.part.package), RT.A_F_CHUNK)
    for _ in range(times):
        d.element.body.insert(len(d.element.body) - 1, parse_xml(f'<w:altChunk {nsdecls("w", "r")} r:id="{rid}"/>'))
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def test_a_word_file_merged_inside_a_merged_one_is_said_as_not_read() -> None:
    inner = _merged("第二条 出差补贴每天一百元。", _word_bytes("第三条 住宿标准每晚六百元。"))
    parsed = parse_bytes(_merged("关于印发《差旅管理办法》的通知", inner), "差旅.docx", max_bytes=LIMIT)
    assert "出差补贴每天一百元" in parsed.text and "六百元" not in parsed.text
    assert any("1 段嵌入的内容未能读取" in note for note in parsed.reading.notes), parsed.reading.notes


def test_one_embedded_part_referenced_many_times_is_read_once_within_the_paragraph_bound(monkeypatch) -> None:
    from rag_core.documents import docx_format
    from rag_core.errors import IngestError

    monkeypatch.setattr(docx_format, "DOCX_MAX_PARAGRAPHS", 4000)  # the same rule at a bound a test reaches in 1 s
    many = docx.Document()
    for i in range(docx_format.DOCX_MAX_PARAGRAPHS // 40 + 1):
        many.add_paragraph(f"第{i}条 规定。")
    out = io.BytesIO()
    many.save(out)
    with pytest.raises(IngestError, match="嵌入的内容超过"):
        parse_bytes(_merged("通知", out.getvalue(), times=40), "合并.docx", max_bytes=LIMIT)
    twice = parse_bytes(_merged("通知", _word_bytes("第一条 住宿标准每晚六百元。"), times=2), "两次.docx", max_bytes=LIMIT)
    assert twice.text.count("六百元") == 2  # shown where Word shows it, read once


def test_a_merged_word_part_typed_by_its_extension_or_named_in_other_case_is_read() -> None:
    import re as regex
    import zipfile

    data = _merged("关于印发《差旅管理办法》的通知", _word_bytes("第一条 一线城市住宿标准每晚六百元。"))
    for change in (
        lambda t: regex.sub(r'<Override PartName="/word/afchunk1.dat"[^>]*/>', "", t).replace(
            "<Default ", f'<Default Extension="dat" ContentType="{WORD_MAIN}"/><Default ', 1),
        lambda t: t.replace('PartName="/word/afchunk1.dat"', 'PartName="/WORD/AFCHUNK1.DAT"'),
    ):
        source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
        with zipfile.ZipFile(out, "w") as copy:
            for info in source.infolist():
                raw = source.read(info)
                copy.writestr(info, change(raw.decode()).encode() if info.filename == "[Content_Types].xml" else raw)
        assert "六百元" in parse_bytes(out.getvalue(), "差旅.docx", max_bytes=LIMIT).text


def test_titles_that_name_the_policy_are_kept() -> None:
    page = ["本手册适用于公司全体员工。", "第一条 员工每年享有带薪年假。"]
    kept = parse_bytes(make_pdf([page], title="深圳华信科技有限公司员工手册"), "scan_0001.pdf", max_bytes=LIMIT)
    assert kept.title == "深圳华信科技有限公司员工手册"
    d = docx.Document()
    d.core_properties.title = "HR手册"
    d.add_paragraph("本手册适用于公司全体员工。")
    assert _parse(d, "handbook_v3.docx").title == "HR手册"


def test_a_part_with_a_table_referenced_twice_gives_two_tables() -> None:
    table = ("<html><head><meta charset='utf-8'></head><body><p>表1 差旅住宿标准</p><table><tr><th>城市</th>"
             "<th>标准</th></tr><tr><td>一线城市</td><td>每晚六百元</td></tr><tr><td>其他城市</td><td>每晚四百元</td>"
             "</tr></table></body></html>")
    parsed = parse_bytes(_merged("第一章 总则", table.encode(), kind="text/html", times=2), "差旅.docx", max_bytes=LIMIT)
    tables = [s.text for s in parsed.sections if s.table]
    assert len(tables) == 2 and all(t.startswith("表1 差旅住宿标准") for t in tables), tables
    assert any("2 个表格（4 行）" in note for note in parsed.reading.notes), parsed.reading.notes


def test_a_nested_unread_part_and_one_in_a_cell_are_both_said() -> None:
    d = docx.Document()
    d.add_paragraph("关于印发《差旅管理办法》的通知")
    inner = _merged("第二条 出差补贴每天一百元。", _word_bytes("第三条 住宿标准每晚六百元。"))
    rid = d.part.relate_to(Part(PackURI("/word/afchunk1.dat"), WORD_MAIN, inner, d.part.package), RT.A_F_CHUNK)
    d.element.body.insert(len(d.element.body) - 1, parse_xml(f'<w:altChunk {nsdecls("w", "r")} r:id="{rid}"/>'))
    cell_part = Part(PackURI("/word/cell.html"), "text/html", "<p>第四条 报销须附发票。</p>".encode(), d.part.package)
    cell_rid = d.part.relate_to(cell_part, RT.A_F_CHUNK)
    d.add_table(rows=1, cols=1).cell(0, 0)._tc.append(parse_xml(f'<w:altChunk {nsdecls("w", "r")} r:id="{cell_rid}"/>'))
    notes = _parse(d).reading.notes
    assert any("2 段嵌入的内容未能读取" in note for note in notes), notes


def test_a_merged_word_part_that_is_a_zip_bomb_refuses_the_whole_file() -> None:
    # a bound passed inside a merged part is a bound, not damage: the file is refused, not read in part
    import zipfile

    from rag_core.documents.zip_checks import DOCX_MAX_MEMBERS
    from rag_core.errors import IngestError, OverBound

    source, out = zipfile.ZipFile(io.BytesIO(_word_bytes("第一条 住宿标准每晚六百元。"))), io.BytesIO()
    with zipfile.ZipFile(out, "w") as bomb:
        for info in source.infolist():
            bomb.writestr(info, source.read(info))
        for i in range(DOCX_MAX_MEMBERS):
            bomb.writestr(f"customXml/item{i}.xml", "")
    with pytest.raises(OverBound, match="文件数"):
        parse_bytes(_merged("通知", out.getvalue()), "合并.docx", max_bytes=LIMIT)
    damaged = parse_bytes(_merged("通知", b"PK\x03\x04 broken"), "坏.docx", max_bytes=LIMIT)
    assert "通知" in damaged.text and not isinstance(damaged, IngestError)
