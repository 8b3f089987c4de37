"""Parsing tests on real files built on the fly (real pypdf / python-docx / bs4, no mocks)."""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path

import pytest
from budget import examples
from fixtures_files import (
    IMAGE_ONLY,
    add_article_numbering,
    docx_bytes,
    encrypt_pdf,
    make_pdf,
    make_pdf_flate_bomb,
    new_docx,
    numbered_paragraph,
    random_bytes,
    wrap_in_content_control,
    write_sparse,
    write_zip_bomb,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rag_core.documents.docx_format import zh_number
from rag_core.documents.parsing import (
    SUPPORTED_EXTENSIONS,
    decode_text,
    legal_heading,
    parse_bytes,
    parse_file,
    safe_filename,
)
from rag_core.errors import IngestError

MB = 1024 * 1024
LIMIT = 20 * MB
CJK = re.compile(r"[\u4e00-\u9fff]")


def refused(data: bytes, name: str, *needles: str, max_bytes: int = LIMIT) -> IngestError:
    """Parse expecting a refusal that names the file and gives a Chinese reason."""
    with pytest.raises(IngestError) as info:
        parse_bytes(data, name, max_bytes=max_bytes)
    return check_error(info.value, safe_filename(name), *needles)


def check_error(err: IngestError, name: str, *needles: str) -> IngestError:
    assert err.filename == name and str(err).startswith(f"{name}: ")
    assert CJK.search(err.reason), err.reason
    for needle in needles:
        assert needle in err.reason, (needle, err.reason)
    return err


def paths(doc) -> list[str]:
    return [s.path for s in doc.sections]


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("../../etc/passwd.txt", "passwd.txt"),
        ("/abs/dir/规章.md", "规章.md"),
        ("C:\\Users\\hr\\员工手册.docx", "员工手册.docx"),
        ("..\\..\\x.pdf", "x.pdf"),
        ("a\x00b.txt", "ab.txt"),
        ("tab\tand\nnewline.txt", "tabandnewline.txt"),
        ("evil\u202eexe.txt", "evilexe.txt"),
        ("  .hidden.txt. ", "hidden.txt"),
        ('what?<>:"|*.md', "what_______.md"),
        ("CON.txt", "_CON.txt"),
        ("员工手册（2024版）.pdf", "员工手册（2024版）.pdf"),
    ],
)
def test_safe_filename_cleans(raw: str, expected: str) -> None:
    assert safe_filename(raw) == expected


def test_safe_filename_trims_long_names_keeping_extension() -> None:
    name = "制" * 300 + ".docx"
    cleaned = safe_filename(name)
    assert len(cleaned) == 120 and cleaned.endswith(".docx") and cleaned.startswith("制制")


@pytest.mark.parametrize("raw", ["", "../", "..", "   ", "\x00\x01", "a/b/", "\u200b\u202e"])
def test_safe_filename_refuses_unusable_names(raw: str) -> None:
    with pytest.raises(IngestError) as info:
        safe_filename(raw)
    assert "文件名无效" in info.value.reason and info.value.filename


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=400))
def test_safe_filename_property(raw: str) -> None:
    try:
        cleaned = safe_filename(raw)
    except IngestError:
        return
    assert 0 < len(cleaned) <= 120
    assert not any(ch in cleaned for ch in "/\\\x00") and cleaned.isprintable()
    assert safe_filename(cleaned) == cleaned


def test_source_is_the_safe_name() -> None:
    doc = parse_bytes("正文".encode(), "../../etc/passwd.txt", max_bytes=LIMIT)
    assert doc.source == "passwd.txt" and doc.title == "passwd"


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("name", ["工资表.xls", "setup.exe", "README", "archive.tar.gz"])
def test_unsupported_extension(name: str) -> None:
    err = refused(b"PK\x03\x04 whatever", name, "不支持的文件类型")
    assert all(ext in err.reason for ext in SUPPORTED_EXTENSIONS)


def test_extension_is_case_insensitive() -> None:
    assert parse_bytes("内容".encode(), "NOTE.TXT", max_bytes=LIMIT).sections[0].text == "内容"


def test_too_large_in_memory() -> None:
    err = refused(b"x" * 3000, "big.txt", "超过上限", "MB", max_bytes=2000)
    assert "0.003 MB" in err.reason and "0.002 MB" in err.reason


def test_sparse_100mb_file_refused_from_stat(tmp_path: Path) -> None:
    path = write_sparse(tmp_path / "huge.pdf", 100 * MB)
    start = time.perf_counter()
    with pytest.raises(IngestError) as info:
        parse_file(path, max_bytes=LIMIT)
    assert time.perf_counter() - start < 0.5  # stat only, nothing read
    check_error(info.value, "huge.pdf", "100.0 MB", "20.0 MB", "超过上限")


def test_parse_file_missing_and_directory(tmp_path: Path) -> None:
    with pytest.raises(IngestError) as info:
        parse_file(tmp_path / "nope.txt", max_bytes=LIMIT)
    check_error(info.value, "nope.txt", "不存在")
    (tmp_path / "dir.md").mkdir()
    with pytest.raises(IngestError) as info:
        parse_file(tmp_path / "dir.md", max_bytes=LIMIT)
    check_error(info.value, "dir.md", "不是普通文件")


def test_parse_file_uses_display_name(tmp_path: Path) -> None:
    path = tmp_path / "upload_123.tmp"
    path.write_bytes("第一条 总则。".encode())
    doc = parse_file(path, max_bytes=LIMIT, display_name="../规章制度.txt")
    assert doc.source == "规章制度.txt" and doc.sections[0].path == "第一条 总则"


@pytest.mark.parametrize("ext", SUPPORTED_EXTENSIONS)
def test_empty_file(ext: str) -> None:
    refused(b"", f"empty{ext}", "文件为空")


@pytest.mark.parametrize("name", ["blank.txt", "blank.md", "blank.html"])
def test_whitespace_only(name: str) -> None:
    refused(" \r\n\t\u3000\n\n  ".encode(), name, "没有可提取的文字")


def test_html_with_only_script_has_no_text() -> None:
    refused(b"<html><script>alert(1)</script><style>p{}</style><nav>menu</nav></html>", "s.html", "没有可提取的文字")


@pytest.mark.parametrize(
    ("ext", "needle"), [(".pdf", "PDF"), (".docx", ".docx"), (".txt", "二进制"), (".md", "二进制")]
)
def test_random_bytes(ext: str, needle: str) -> None:
    refused(random_bytes(4096), f"garbage{ext}", needle)


def test_binary_in_txt() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200)
    refused(png, "photo.txt", "二进制")


def test_truncated_pdf() -> None:
    data = make_pdf([["Employee Handbook"], ["second page"]])
    refused(data[: len(data) // 2], "cut.pdf", "PDF")


def test_pdf_header_but_garbage() -> None:
    refused(b"%PDF-1.7\n" + random_bytes(2000), "fake.pdf", "PDF")


def test_doc_or_encrypted_office_named_docx() -> None:
    refused(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "old.docx", ".doc", "另存为")


def test_zip_without_document_named_docx(tmp_path: Path) -> None:
    path = tmp_path / "x.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("hello.txt", "hi")
    refused(path.read_bytes(), "x.docx", "word/document.xml")


@pytest.fixture(scope="module")
def zip_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_zip_bomb(tmp_path_factory.mktemp("bomb") / "bomb.docx", 300)


def test_zip_bomb_docx_refused_by_directory_sizes(zip_bomb: Path) -> None:
    assert zip_bomb.stat().st_size < 2 * MB  # 300 MB of zeros stays tiny on disk
    with pytest.raises(IngestError) as info:
        parse_file(zip_bomb, max_bytes=LIMIT)
    check_error(info.value, "bomb.docx", "压缩炸弹", "300 MB", "200 MB")


def test_high_ratio_docx_refused(tmp_path: Path) -> None:
    path = write_zip_bomb(tmp_path / "ratio.docx", 20)
    refused(path.read_bytes(), "ratio.docx", "压缩比", "压缩炸弹")


def test_pdf_stream_bomb_refused() -> None:
    refused(make_pdf_flate_bomb(100), "bomb.pdf", "第 1 页", "压缩炸弹")


def test_encrypted_pdf() -> None:
    data = encrypt_pdf(make_pdf([["Secret salary table"]]), "secret")
    refused(data, "工资.pdf", "已加密", "密码")


def test_owner_password_only_pdf_still_parses() -> None:
    data = encrypt_pdf(make_pdf([["Open to read"]]), "", "owner")
    assert parse_bytes(data, "perm.pdf", max_bytes=LIMIT).text == "Open to read"


@pytest.mark.parametrize("pages", [[IMAGE_ONLY], [[]], [IMAGE_ONLY, [], IMAGE_ONLY]])
def test_pdf_without_text_layer(pages) -> None:
    refused(make_pdf(pages), "scan.pdf", "没有可提取的文字层", "OCR 也没有识别出文字")  # OCR tried, found nothing


def test_mostly_undecodable_text_refused() -> None:
    data = bytearray("员工每年享有五天带薪年假，入职满一年后开始计算。".encode("gbk") * 20)
    for i in range(0, len(data), 15):
        data[i] = 0xFF
    refused(bytes(data), "mixed.txt", "编码", "1%")


# --------------------------------------------------------------------------- encodings and text

HANDBOOK = "第一章 总则\n第一条 目的。为规范员工请假管理，特制定本制度。\n第二条 适用范围。本制度适用于全体员工。\n"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (HANDBOOK.encode("utf-8"), "utf-8"),
        (HANDBOOK.encode("gbk"), "gb18030"),
        (HANDBOOK.encode("utf-8-sig"), "utf-8-sig"),
        (HANDBOOK.encode("utf-16"), "utf-16-le"),
        (HANDBOOK.encode("utf-16-le"), "utf-16-le"),
    ],
)
def test_encodings(data: bytes, encoding: str) -> None:
    doc = parse_bytes(data, "请假制度.txt", max_bytes=LIMIT)
    assert doc.encoding == encoding
    assert doc.text.replace("\n\n", "\n") == HANDBOOK.strip()
    assert "\ufeff" not in doc.text


def test_gb18030_beyond_gbk() -> None:
    text = "第三条 生僻字姓名：𠮷野家、䶮，欧元符号€。"
    data = text.encode("gb18030")
    with pytest.raises(UnicodeEncodeError):
        text.encode("gbk")
    doc = parse_bytes(data, "gb.txt", max_bytes=LIMIT)
    assert doc.encoding == "gb18030" and doc.text == text


def test_mixed_encoding_decodes_with_replacement() -> None:
    line = "第八条 年假。员工每年享有五天带薪年假，入职满一年后开始计算。\n"
    data = (line * 3).encode("gbk") + b"\xff" + (line * 7).encode("gbk")  # one stray byte
    doc = parse_bytes(data, "mixed.txt", max_bytes=LIMIT)
    assert doc.encoding == "gb18030/replace"
    assert "\ufffd" in doc.text and doc.text.count("入职满一年后开始计算") == 10


def test_html_meta_charset_is_honoured() -> None:
    html = '<html><head><meta charset="big5"><title>員工手冊</title></head><body><p>員工每年享有五天帶薪年假</p></body></html>'
    doc = parse_bytes(html.encode("big5"), "tw.html", max_bytes=LIMIT)
    assert doc.encoding == "big5" and doc.title == "員工手冊" and "帶薪年假" in doc.text


def test_decode_text_prefers_utf8_over_gb18030() -> None:
    assert decode_text("年假".encode(), "a.txt") == ("年假", "utf-8")


def test_normalisation_keeps_paragraphs_and_fullwidth_spaces() -> None:
    raw = "制度说明  \r\n\r\n\r\n\r\n\u3000\u3000员工应遵守本制度。\t \r\n第二段\r最后一行   "
    doc = parse_bytes(raw.encode("gbk"), "n.txt", max_bytes=LIMIT)
    assert doc.text == "制度说明\n\n\u3000\u3000员工应遵守本制度。\n第二段\n最后一行"


# --------------------------------------------------------------------------- structure

MARKDOWN = """# 员工手册

前言：本手册适用于全体员工。

## 第一章 总则

第一条 目的。为规范管理制定本手册。

## 第三章 **假期**

### 第八条 年假
员工每年享有 **五天** 带薪年假。

**第九条** 病假天数……病假需提供证明。

第十条 婚假。员工可享受三天婚假。

第二节 特殊假期
第十一条（产假）按国家规定执行。

第四章 附则
第十二条 施行。本手册自发布之日起施行。

```
# 代码块里的井号不是标题
```
"""


def test_markdown_structure() -> None:
    doc = parse_bytes(MARKDOWN.encode(), "handbook.md", max_bytes=LIMIT)
    assert doc.title == "员工手册" and doc.encoding == "utf-8"
    assert paths(doc) == [
        "员工手册",
        "员工手册 > 第一章 总则 > 第一条 目的",
        "员工手册 > 第三章 假期 > 第八条 年假",
        "员工手册 > 第三章 假期 > 第九条 病假天数",
        "员工手册 > 第三章 假期 > 第十条 婚假",
        "员工手册 > 第三章 假期 > 第二节 特殊假期 > 第十一条 产假",
        "员工手册 > 第四章 附则 > 第十二条 施行",
    ]
    by_path = {s.path.rsplit(" > ", 1)[-1]: s.text for s in doc.sections}
    assert by_path["员工手册"] == "员工手册\n\n前言：本手册适用于全体员工。"
    assert by_path["第八条 年假"] == "第三章 假期\n\n第八条 年假\n员工每年享有 五天 带薪年假。"
    assert by_path["第九条 病假天数"] == "第九条 病假天数……病假需提供证明。"
    assert "# 代码块里的井号不是标题" in by_path["第十二条 施行"]
    assert "**" not in doc.text and "## " not in doc.text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("第八条 年假", (3, "第八条 年假")),
        ("第八条 年假天数……", (3, "第八条 年假天数")),
        ("第八条 年假。员工每年享有五天。", (3, "第八条 年假")),
        ("第八条：年假", (3, "第八条 年假")),
        ("\u3000\u3000第十二条\u3000加班", (3, "第十二条 加班")),
        ("第 8 条 年假", (3, "第8条 年假")),
        ("第一百零五条（附则）本办法由人力资源部解释。", (3, "第一百零五条 附则")),
        ("第八条 员工每年享有带薪年假五天，入职满一年后开始计算。", (3, "第八条")),
        ("第八条年假", (3, "第八条年假")),
        ("第八条规定的年假天数，按工龄累计计算，最多十五天。", None),
        ("第三章 假期", (1, "第三章 假期")),
        ("第3章假期管理", (1, "第3章假期管理")),
        ("第二节 特殊假期", (2, "第二节 特殊假期")),
        ("第三章规定的各类假期均须提前申请。", None),
        ("依据第八条规定执行", None),
        ("第八项 其他", None),
    ],
)
def test_legal_heading(line: str, expected) -> None:
    assert legal_heading(line) == expected


def test_plain_text_without_headings() -> None:
    doc = parse_bytes("第一段。\n\n第二段。".encode(), "notes.txt", max_bytes=LIMIT)
    assert doc.title == "notes" and paths(doc) == [""] and doc.text == "第一段。\n\n第二段。"


def test_new_chapter_resets_article_and_text_before_heading_kept() -> None:
    text = "前言\n第一章 总则\n第一条 目的。甲。\n第二章 假期\n假期说明。\n第一条 年假。乙。\n"
    doc = parse_bytes(text.encode(), "r.txt", max_bytes=LIMIT)
    assert paths(doc) == ["", "第一章 总则 > 第一条 目的", "第二章 假期", "第二章 假期 > 第一条 年假"]
    assert doc.sections[2].text == "第二章 假期\n假期说明。"


def test_zh_number() -> None:
    assert [zh_number(n) for n in (1, 10, 12, 20, 21, 100, 105, 110, 1001)] == [
        "一", "十", "十二", "二十", "二十一", "一百", "一百零五", "一百一十", "一千零一"
    ]  # fmt: skip


# --------------------------------------------------------------------------- docx


def build_docx(core_title: str = "") -> bytes:
    doc = new_docx()
    doc.core_properties.title = core_title
    doc.add_paragraph("员工手册", style="Title")
    doc.add_paragraph("本手册由人力资源部制定。")
    doc.add_heading("第一章 总则", level=1)
    doc.add_paragraph("第一条 目的。为规范管理，制定本手册。")
    doc.add_heading("第二章 假期", level=1)
    num = add_article_numbering(doc)
    numbered_paragraph(doc, "年假。员工每年享有五天带薪年假。", num)
    numbered_paragraph(doc, "病假。病假需提供医院证明。", num)
    table = doc.add_table(rows=3, cols=3)
    for r, row in enumerate([["假期", "天数", "备注"], ["年假", "5", "满一年"], ["婚假", "3", ""]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(2, 1).merge(table.cell(2, 2))
    doc.add_heading("附录", level=2)
    doc.add_paragraph("表格说明。")
    return docx_bytes(doc)


def test_docx_structure_tables_and_numbering() -> None:
    doc = parse_bytes(build_docx(), "手册.docx", max_bytes=LIMIT)
    assert doc.title == "员工手册" and doc.encoding is None
    assert paths(doc) == [
        "员工手册",
        "员工手册 > 第一章 总则 > 第一条 目的",
        "员工手册 > 第二章 假期 > 第一条 年假",
        "员工手册 > 第二章 假期 > 第二条 病假",
        "员工手册 > 第二章 假期 > 第二条 病假",  # the table is a section of its own, under the same path
        "员工手册 > 第二章 假期 > 附录",
    ]
    assert doc.sections[0].text == "员工手册\n\n本手册由人力资源部制定。"
    assert doc.sections[2].text.startswith("第二章 假期\n\n第一条 年假。员工每年")
    assert doc.sections[4].table and doc.sections[4].text == "假期：年假，天数：5，备注：满一年\n假期：婚假，天数：3，备注：3"
    assert doc.sections[5].text == "附录\n\n表格说明。"


def test_docx_core_title_wins() -> None:
    assert parse_bytes(build_docx("2024 员工手册"), "a.docx", max_bytes=LIMIT).title == "2024 员工手册"


def test_docx_content_controls_read_and_toc_skipped() -> None:
    from docx.enum.style import WD_STYLE_TYPE

    doc = new_docx()
    doc.styles.add_style("TOC 1", WD_STYLE_TYPE.PARAGRAPH)
    doc.add_paragraph("第一章 总则\t1", style="TOC 1")
    doc.add_paragraph("第二章 假期\t3", style="TOC 1")
    doc.add_heading("第一章 总则", level=1)
    wrap_in_content_control(doc.add_paragraph("第一条 目的。控件里的正文。"))
    parsed = parse_bytes(docx_bytes(doc), "sdt.docx", max_bytes=LIMIT)
    assert paths(parsed) == ["第一章 总则 > 第一条 目的"]
    assert parsed.text == "第一章 总则\n\n第一条 目的。控件里的正文。"


def test_contents_page_lines_are_not_headings() -> None:
    text = "目录\n第一章 总则……………1\n第二章 假期.......3\n第一章 总则\n第一条 目的。正文。\n"
    doc = parse_bytes(text.encode(), "toc.txt", max_bytes=LIMIT)
    assert paths(doc) == ["", "第一章 总则 > 第一条 目的"]


def test_docx_without_text() -> None:
    refused(docx_bytes(new_docx()), "blank.docx", "没有可提取的文字")


# --------------------------------------------------------------------------- html

HTML = """<!DOCTYPE html><html><head><title>考勤制度</title><style>p {color: red}</style>
<script>var secret = "不应出现";</script></head><body>
<nav><a href="/">首页</a> 导航菜单</nav>
<h1>考勤管理办法</h1>
<h2>第一章 总则</h2>
<p>第一条 目的。为规范
考勤管理制定本办法。</p>
<h2>第二章 考勤</h2>
<h3>迟到与早退</h3>
<ul><li>迟到 <b>30 分钟</b>以内扣款</li><li>早退<br>视同迟到</li></ul>
<table><tr><th>类型</th><th>扣款</th></tr><tr><td>迟到</td><td>50元</td></tr></table>
<div>正文直接写在 div 里<!-- 注释 --></div>
</body></html>"""


def test_html_structure() -> None:
    doc = parse_bytes(HTML.encode(), "kq.html", max_bytes=LIMIT)
    assert doc.title == "考勤制度" and doc.encoding == "utf-8"
    assert paths(doc) == [
        "考勤管理办法 > 第一章 总则 > 第一条 目的",
        "考勤管理办法 > 第二章 考勤 > 迟到与早退",
        "考勤管理办法 > 第二章 考勤 > 迟到与早退",  # the table, as records
        "考勤管理办法 > 第二章 考勤 > 迟到与早退",
    ]
    assert "第一条 目的。为规范考勤管理制定本办法。" in doc.text
    body = doc.sections[1].text
    assert "迟到 30 分钟以内扣款\n\n早退\n视同迟到" in body
    assert doc.sections[2].table and doc.sections[2].text == "类型：迟到，扣款：50元"
    assert doc.sections[3].text == "正文直接写在 div 里"
    assert not any(bad in doc.text for bad in ("不应出现", "导航菜单", "color", "注释"))


def test_html_title_falls_back_to_h1() -> None:
    doc = parse_bytes("<h1>薪酬制度</h1><p>内容</p>".encode("gbk"), "x.htm", max_bytes=LIMIT)
    assert doc.title == "薪酬制度" and doc.encoding == "gb18030"


# --------------------------------------------------------------------------- pdf


def test_pdf_ascii_two_pages() -> None:
    data = make_pdf([["Employee Handbook", "Work hours are 9 to 6 (Mon-Fri)."], ["Page two text", "Back\\slash"]])
    doc = parse_bytes(data, "hb.pdf", max_bytes=LIMIT)
    assert doc.title == "Employee Handbook" and doc.encoding is None
    assert [(s.page, s.text) for s in doc.sections] == [
        (1, "Employee Handbook\nWork hours are 9 to 6 (Mon-Fri)."),
        (2, "Page two text\nBack\\slash"),
    ]


def test_pdf_chinese_headings_carry_across_pages() -> None:
    pages = [
        ["员工手册", "第一章 总则", "第一条 目的。为规范管理制定本手册。"],
        ["本条续前页内容。", "第二章 假期", "第八条 年假。员工每年享有5天带薪年假。"],
        IMAGE_ONLY,
        ["第八条之补充说明。"],
    ]
    doc = parse_bytes(make_pdf(pages, title="2024 员工手册"), "cn.pdf", max_bytes=LIMIT)
    assert doc.title == "2024 员工手册"
    assert [(s.page, s.path) for s in doc.sections] == [
        (1, ""),
        (1, "第一章 总则 > 第一条 目的"),
        (2, "第一章 总则 > 第一条 目的"),
        (2, "第二章 假期 > 第八条 年假"),
        (4, "第二章 假期 > 第八条 年假"),
    ]
    assert doc.sections[3].text == "第二章 假期\n\n第八条 年假。员工每年享有5天带薪年假。"


# --------------------------------------------------------------------------- properties

ALPHABET = st.one_of(
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.sampled_from("第章节条一二三十0123456789abcXYZ。，；！？\n\n\n "),
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet=ALPHABET, max_size=300), ext=st.sampled_from([".txt", ".md"]))
@example(text="b倖", ext=".txt")  # valid UTF-8 that also reads as two common hanzi in UTF-16 (拥肖)
def test_text_is_preserved_in_order(text: str, ext: str) -> None:
    try:
        doc = parse_bytes(text.encode("utf-8"), "p" + ext, max_bytes=LIMIT)
    except IngestError as err:
        assert not text.strip(), err
        return
    # every non-space character, once, in order: heading lines stay in the text, nothing is duplicated
    assert "".join(doc.text.split()) == "".join(text.split())
    assert all(s.text.strip() for s in doc.sections)


@settings(max_examples=examples(150), deadline=None)
@given(data=st.binary(max_size=2000), ext=st.sampled_from(SUPPORTED_EXTENSIONS))
def test_arbitrary_bytes_only_raise_ingest_error(data: bytes, ext: str) -> None:
    try:
        parse_bytes(data, "fuzz" + ext, max_bytes=LIMIT)
    except IngestError as err:
        assert CJK.search(err.reason)


@settings(max_examples=examples(60), deadline=None)
@given(st.binary(min_size=1, max_size=400))
def test_corrupted_pdf_and_docx_only_raise_ingest_error(tail: bytes) -> None:
    for data, name in (
        (make_pdf([["Hello"]])[:200] + tail, "c.pdf"),
        (build_docx_cached()[:1500] + tail, "c.docx"),
    ):
        try:
            parse_bytes(data, name, max_bytes=LIMIT)
        except IngestError as err:
            assert CJK.search(err.reason)


_DOCX_CACHE: list[bytes] = []


def build_docx_cached() -> bytes:
    if not _DOCX_CACHE:
        _DOCX_CACHE.append(build_docx())
    return _DOCX_CACHE[0]
