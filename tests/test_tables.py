"""Tables as records: docx (merged and multi-row headers), html (rowspan/colspan), markdown,
row-group chunking, and the real search finding one row of a 30-row table with its headers."""

from __future__ import annotations

import io

import pytest
from docx import Document

from rag_core.documents.chunking import chunk_document, rejoin
from rag_core.documents.parsing import parse_bytes
from rag_core.documents.tables import Grid, table_text
from rag_core.text.records import as_markdown, parse_record, record_line, records_table

LIMIT = 20 * 1024 * 1024
CITIES = [
    ("北京", "一类", 600, 120), ("上海", "一类", 600, 120), ("广州", "一类", 550, 110), ("深圳", "一类", 550, 110),
    ("天津", "二类", 450, 100), ("重庆", "二类", 430, 100), ("杭州", "二类", 480, 100), ("南京", "二类", 460, 100),
    ("武汉", "二类", 440, 100), ("成都", "二类", 440, 100), ("西安", "二类", 420, 100), ("兰州", "三类", 380, 90),
    ("海口", "三类", 400, 95), ("西宁", "三类", 350, 90), ("银川", "三类", 350, 90), ("拉萨", "三类", 360, 110),
    ("昆明", "三类", 370, 90), ("贵阳", "三类", 360, 90), ("南宁", "三类", 360, 90), ("福州", "三类", 380, 90),
    ("厦门", "二类", 460, 100), ("青岛", "二类", 450, 100), ("大连", "二类", 440, 100), ("沈阳", "三类", 380, 90),
    ("长春", "三类", 360, 90), ("哈尔滨", "三类", 370, 90), ("太原", "三类", 350, 85), ("石家庄", "三类", 350, 85),
    ("郑州", "三类", 370, 90), ("济南", "三类", 380, 90),
]
HEADERS = ("城市", "城市类别", "住宿标准（元/晚）", "伙食补助（元/天）")


def city_docx(*, merged_header: bool = True) -> bytes:
    """A travel policy with the 30-row city table; the header has merged cells over two rows."""
    d = Document()
    d.add_heading("差旅费管理办法", 0)
    d.add_heading("第五条 住宿和伙食标准", 1)
    d.add_paragraph("员工出差的住宿费按实际发生报销，不得超过下表标准；伙食补助按出差天数包干发放。")
    d.add_paragraph("各城市差旅标准如下：")
    rows = len(CITIES) + (2 if merged_header else 1)
    t = d.add_table(rows=rows, cols=4)
    if merged_header:
        t.cell(0, 0).merge(t.cell(1, 0)).text = HEADERS[0]
        t.cell(0, 1).merge(t.cell(1, 1)).text = HEADERS[1]
        t.cell(0, 2).merge(t.cell(0, 3)).text = "差旅标准"
        t.cell(1, 2).text, t.cell(1, 3).text = HEADERS[2], HEADERS[3]
    else:
        for j, h in enumerate(HEADERS):
            t.cell(0, j).text = h
    first = rows - len(CITIES)
    for i, (city, kind, hotel, meal) in enumerate(CITIES):
        cells = t.rows[first + i].cells
        cells[0].text, cells[1].text, cells[2].text, cells[3].text = city, kind, str(hotel), str(meal)
    d.add_paragraph("超出标准的部分由个人承担，特殊情况须经总经理批准。")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def test_record_lines_round_trip_and_soften_separators() -> None:
    line = record_line([("城市", "兰州"), ("备注", "含早餐；不含停车"), ("空", "")])
    assert line == "城市：兰州，备注：含早餐，不含停车"
    assert parse_record(line) == [("城市", "兰州"), ("备注", "含早餐，不含停车")]
    assert parse_record("第五条 员工出差应当提前申请。") is None
    from rag_core.text.sentences import split_sentences

    assert split_sentences(line) == [line]  # a row is one sentence: quoted and embedded whole, never a bare "480"
    assert records_table([line, "城市：海口，备注：无"]) == (["城市", "备注"], [["兰州", "含早餐，不含停车"], ["海口", "无"]])


def test_multi_row_header_with_merged_cells_is_resolved() -> None:
    grid = Grid(
        [["城市", "城市类别", "差旅标准", "差旅标准"], ["城市", "城市类别", "住宿（元/晚）", "伙食（元/天）"], ["兰州", "三类", "380", "90"]],
        merged={(0, 3)},
    )
    found = table_text(grid)
    assert found is not None
    assert found.records == ["城市：兰州，城市类别：三类，差旅标准·住宿（元/晚）：380，差旅标准·伙食（元/天）：90"]


def test_full_width_label_row_becomes_a_group_field_and_merged_body_cells_repeat() -> None:
    grid = Grid([["职级", "岗位", "月薪（元）"], ["管理序列", "管理序列", "管理序列"], ["M1", "主管", "15000"], ["M1", "经理", "20000"]])
    found = table_text(grid)
    assert found is not None
    assert found.records == ["分组：管理序列，职级：M1，岗位：主管，月薪（元）：15000", "分组：管理序列，职级：M1，岗位：经理，月薪（元）：20000"]


def test_docx_city_table_every_row_names_its_headers() -> None:
    doc = parse_bytes(city_docx(), "差旅费管理办法.docx", max_bytes=LIMIT)
    assert doc.reading.tables == 1 and doc.reading.table_rows == 30
    table = [s for s in doc.sections if s.table]
    assert len(table) == 1 and table[0].text.startswith("各城市差旅标准如下：")  # the caption travels with the table
    assert "城市：兰州，城市类别：三类，差旅标准·住宿标准（元/晚）：380，差旅标准·伙食补助（元/天）：90" in table[0].text
    assert not any(s.table for s in doc.sections if "超出标准" in s.text)


@pytest.mark.parametrize("chunk_size", [120, 240, 500])
def test_row_groups_never_split_a_row_and_each_chunk_carries_the_caption(chunk_size: int) -> None:
    doc = parse_bytes(city_docx(), "差旅费管理办法.docx", max_bytes=LIMIT)
    chunks = chunk_document(doc, chunk_size, 60)
    table_chunks = [c for c in chunks if "城市：" in c.text]
    assert len(table_chunks) > 1
    for c in table_chunks:
        assert "各城市差旅标准如下：" in c.text
        for line in c.text.split("\n"):
            if "城市：" in line:
                assert parse_record(line) is not None and len(parse_record(line) or []) == 4, line
    every_row = [line for c in table_chunks for line in c.text.split("\n") if line.startswith("城市：")]
    assert len(every_row) == 30 and len(set(every_row)) == 30
    table_text_once = next(s.text for s in doc.sections if s.table)
    assert table_text_once in rejoin(chunks)  # the repeated caption is overlap: the text comes back once


def test_table_without_caption_repeats_its_heading() -> None:
    md = "# 补贴标准\n\n## 通讯补贴\n\n| 岗位 | 每月（元） |\n|---|---|\n" + "".join(
        f"| 岗位{i} | {100 + i} |\n" for i in range(20)
    )
    doc = parse_bytes(md.encode(), "补贴.md", max_bytes=LIMIT)
    chunks = [c for c in chunk_document(doc, 80, 20) if "岗位：" in c.text]
    assert len(chunks) > 2
    assert all(c.text.startswith("## 通讯补贴") or c.text.startswith("通讯补贴\n") for c in chunks)
    assert all(c.overlap_chars == len("通讯补贴\n") for c in chunks[1:])


def test_html_table_rowspan_colspan_thead_and_caption() -> None:
    html = """<html><body><h1>加班管理</h1>
    <table><caption>加班费计算标准</caption>
    <thead><tr><th rowspan=2>加班类型</th><th colspan=2>计算标准</th></tr>
    <tr><th>倍数</th><th>基数</th></tr></thead>
    <tbody><tr><td>工作日延长</td><td>1.5</td><td rowspan=3>本人月工资</td></tr>
    <tr><td>休息日</td><td>2</td></tr><tr><td>法定节假日</td><td>3</td></tr></tbody></table>
    <p>加班须提前申请。</p></body></html>"""
    doc = parse_bytes(html.encode(), "加班.html", max_bytes=LIMIT)
    table = next(s for s in doc.sections if s.table)
    assert table.text.split("\n")[0] == "加班费计算标准"
    assert "加班类型：法定节假日，计算标准·倍数：3，计算标准·基数：本人月工资" in table.text
    assert "加班须提前申请" not in table.text


def test_markdown_pipe_table_and_reindexed_record_lines_stay_tables() -> None:
    md = "# 年假\n\n| 工龄 | 年假天数 |\n| :-- | --: |\n| 满1年不满10年 | 5 |\n| 满10年不满20年 | 10 |\n\n其他情况另行规定。\n"
    doc = parse_bytes(md.encode(), "年假.md", max_bytes=LIMIT)
    table = next(s for s in doc.sections if s.table)
    assert table.text == "工龄：满1年不满10年，年假天数：5\n工龄：满10年不满20年，年假天数：10"
    again = parse_bytes(rejoin(chunk_document(doc, 240, 60)).encode(), "年假.txt", max_bytes=LIMIT)
    assert [s.text for s in again.sections if s.table] == [table.text]  # re-index keeps whole rows together


def test_prompt_form_shows_rows_as_a_small_table() -> None:
    text = "各城市差旅标准如下：\n城市：兰州，住宿（元/晚）：380\n城市：海口，住宿（元/晚）：400"
    assert as_markdown(text).split("\n") == [
        "各城市差旅标准如下：", "| 城市 | 住宿（元/晚） |", "|---|---|", "| 兰州 | 380 |", "| 海口 | 400 |",
    ]


def test_layout_tables_without_data_stay_plain_lines() -> None:
    d = Document()
    d.add_paragraph("通知")
    t = d.add_table(rows=1, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "签发人：张三", "日期：2024年1月1日"
    out = io.BytesIO()
    d.save(out)
    doc = parse_bytes(out.getvalue(), "通知.docx", max_bytes=LIMIT)
    assert "签发人：张三 | 日期：2024年1月1日" in doc.text and doc.reading.tables == 0


@pytest.mark.integration
def test_search_finds_the_row_with_its_headers(store_copy) -> None:
    from conftest import open_assistant

    assistant = open_assistant(store_copy)
    report = assistant.ingest_bytes(city_docx(), "差旅费管理办法.docx")
    assert report.ok, report.error
    assert report.reading is not None and report.reading.tables == 1
    for question, row in [
        ("去兰州出差住宿每晚能报多少？", "城市：兰州，城市类别：三类，差旅标准·住宿标准（元/晚）：380"),
        ("在海口出差伙食补助一天多少？", "城市：海口，城市类别：三类，差旅标准·住宿标准（元/晚）：400，差旅标准·伙食补助（元/天）：95"),
    ]:
        result = assistant.search(question)
        assert result.hits, question
        top = [h.chunk.text for h in result.hits[:3]]
        assert any(row in text for text in top), (question, top)


def test_prompt_shows_a_table_chunk_as_a_small_table() -> None:
    from rag_core.answer.prompt import build_prompt
    from rag_core.types import Chunk, Hit, HitScores

    text = "各城市差旅标准如下：\n城市：兰州，住宿标准（元/晚）：380\n城市：海口，住宿标准（元/晚）：400\n"
    chunk = Chunk("d@v1#0", "d", 1, 0, text, "差旅.docx", "差旅费管理办法", "第五条 住宿和伙食标准")
    built = build_prompt("去兰州住宿能报多少？", [Hit(chunk, HitScores())], [], 1800)
    assert "| 城市 | 住宿标准（元/晚） |\n|---|---|\n| 兰州 | 380 |\n| 海口 | 400 |" in built.text
    assert built.sources[0].text == text.strip()  # the citation keeps the chunk as stored


def test_hit_card_shows_table_rows_as_a_table() -> None:
    from ui.trace_view import records_frame

    found = records_frame("各城市差旅标准如下：\n城市：兰州，住宿标准（元/晚）：380\n城市：海口，伙食补助（元/天）：95\n")
    assert found is not None
    lead, frame = found
    assert lead == "各城市差旅标准如下："
    assert list(frame.columns) == ["城市", "住宿标准（元/晚）", "伙食补助（元/天）"]
    assert frame.values.tolist() == [["兰州", "380", ""], ["海口", "", "95"]]
    assert records_frame("第一条 总则。\n本办法适用于全体员工。") is None
    assert records_frame("城市：兰州，住宿：380\n超出部分自理。") is None
