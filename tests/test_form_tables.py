"""A table cell is also masked as the value of the cell left of it (review 300's Word form, reviews 325/326).

A Word form without a header row (姓名 | 张三 / 家庭住址 | 北京市…) read as header and records put the home address under
the key 张三, where masking could not see its label: it was stored raw. Reading the whole table as a form instead
(d0ffb3d) lost the headers of data tables and still missed forms; now each cell is masked where its left neighbour
makes it personal and the cell alone is not masked, and every table keeps its header reading."""

from __future__ import annotations

import io

from docx import Document

from rag_core.documents.prepare import prepare
from rag_core.settings import Settings

HOME = "北京市朝阳区建国路88号3单元501室"


def word_table(rows: list[list[str]], *, merge: tuple[int, int, int] | None = None, header: bool = False,
               down: tuple[int, int] | None = None) -> bytes:
    document = Document()
    document.add_paragraph("员工信息登记表")
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            table.cell(i, j).text = text
    if merge:
        row, first, last = merge
        table.cell(row, first).merge(table.cell(row, last))
    if down:  # a value merged down into the next row
        row, column = down
        table.cell(row, column).merge(table.cell(row + 1, column))
    if header:  # 重复标题行: the file says its first row is the header
        from docx.oxml import OxmlElement
        from docx.oxml.ns import qn

        properties = table.rows[0]._tr.get_or_add_trPr()
        mark = OxmlElement("w:tblHeader")
        mark.set(qn("w:val"), "true")
        properties.append(mark)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def stored(data: bytes, name: str = "登记表.docx", settings: Settings | None = None, **options) -> tuple[str, dict]:
    prepared = prepare(data, name, settings or Settings(), **options)
    return "\n".join(chunk.text for chunk in prepared.chunks), prepared.redactions


def test_a_two_column_form_masks_the_address_beside_its_label() -> None:
    text, counts = stored(word_table([["姓名", "张三"], ["家庭住址", HOME], ["手机", "13812345678"]]))
    assert "建国路88号" not in text and "13812345678" not in text
    assert counts.get("address") == 1


def test_forms_with_two_fields_a_row_a_merged_value_a_section_column_or_a_declared_header() -> None:
    layouts = [
        word_table([["姓名", "张三", "部门", "人事部"], ["家庭住址", HOME, HOME, HOME]], merge=(1, 1, 3)),
        word_table([["姓名", "张三", "手机", "13812345678"], ["家庭住址", HOME, "紧急联系人", "李四"]]),
        word_table([["基本信息", "姓名", "张三"], ["基本信息", "家庭住址", HOME]]),  # a merged section label column
        word_table([["姓名", "张三"], ["家庭住址", HOME]], header=True),
        word_table([["姓名", "张三", "性别", "男"], ["家庭住址", HOME, "籍贯", "北京"], ["邮编", "", "民族", "汉"]], down=(1, 1)),
        word_table([["姓　　名", "张三"], ["住　　址：", HOME]]),  # a label spaced out, with its colon
        word_table([["姓名", "张三", "性别", "男"], ["家庭住址", "紧急联系人", "联系电话", "关系"],
                    [HOME, "李四", "13912345678", "配偶"]]),  # labels over their values, below the first row
        word_table([["家庭住址", f"{HOME} 13812345678"]] * 2),  # two values in one cell, one of them masked alone
        word_table([["姓名", "张三", "性别", "男", "民族", "汉"]] + [["工作经历", "2020年", "某公司", "专员", "3年", "无"]] * 26
                   + [["家庭住址", HOME, "", "", "", ""]]),  # 28 rows × 6: a full registration form
    ]
    for data in layouts:
        text, _ = stored(data)
        assert "建国路88号" not in text and "[住址]" in text, text


def test_a_label_masks_values_of_any_shape_and_counts_once() -> None:
    text, counts = stored(word_table([["姓名", "张三"], ["微信", "zhangsan_hr"], ["家庭住址", "北京市朝阳区长街八号"]]))
    assert "zhangsan_hr" not in text and "长街八号" not in text, text
    one_row = word_table([["姓名", "张三", "家庭住址", HOME, "QQ", "123456789"], ["本人承诺以上信息属实"] * 6],
                         merge=(1, 0, 5))  # no records: read as plain rows, masked as text
    text, counts = stored(one_row)
    assert "建国路88号" not in text and "123456789" not in text
    assert (counts.get("address"), counts.get("qq")) == (1, 1)


def test_rows_of_people_under_one_labels_row_and_columns_of_people() -> None:
    family = word_table([["关系", "姓名", "家庭住址", "QQ"], ["配偶", "李四", HOME, "123456789"],
                         ["父亲", "张大", "上海市浦东新区张江路100弄5号1202室", "987654321"]])
    text, _ = stored(family)
    assert "建国路88号" not in text and "张江路100弄" not in text and "987654321" not in text, text
    columns = word_table([["姓名", "张三", "李四"], ["住　址", HOME, "上海市浦东新区张江路100弄5号1202室"]])
    assert "张江路100弄" not in stored(columns)[0]
    one_row = word_table([["住　　址：", HOME, "QQ/微信", "123456789"]])  # plain rows, not records
    text, counts = stored(one_row)
    assert "建国路88号" not in text and "123456789" not in text and counts.get("address") == 1
    compound = word_table([["姓名", "张三"], ["家庭住址及电话", f"{HOME} 13812345678"]])
    assert "建国路88号" not in stored(compound)[0]


def test_another_label_ends_a_row_s_labels_and_equal_amounts_stay() -> None:
    text, _ = stored(word_table([["QQ", "123456789", "金额", "200000"], ["微信", "10000", "现金", "10000"]]))
    assert "123456789" not in text and "200000" in text and text.count("10000") >= 2, text


def test_merges_notes_fillers_and_a_row_label_that_heads_no_column() -> None:
    merged = word_table([["姓名", "张三", "性别", "男"], ["QQ", "123456789", "民族", "汉"], ["邮编", "", "籍贯", "北京"]],
                        down=(1, 1))  # a QQ number merged down beside 邮编
    assert "123456789" not in stored(merged)[0]
    noted = word_table([["姓名", "张三"], ["家庭住址（须填写到门牌号）", HOME], ["身份证号码（18位）", "110101199003076666"]])
    assert "建国路88号" not in stored(noted)[0]
    per_person = word_table([["姓名", "张三", "李四", "王五"], ["住　址", HOME, "同上", "上海市浦东新区张江路100弄5号1202室"]])
    assert "张江路100弄" not in stored(per_person)[0]
    policy = word_table([["项目", "内容"], ["咨询电话", "0571-88886666"], ["2026.01-2026.06", "第一批：提交申请表"],
                         ["2026.07-2026.12", "第二批：提交申请表"]])
    text, counts = stored(policy)
    assert "2026.01-2026.06" in text and "2026.07-2026.12" in text and counts.get("landline", 0) <= 1, (text, counts)


def test_rosters_with_spaced_headers_families_with_long_labels_and_noted_kinds() -> None:
    """Review 331: a header row the records cannot read (住　　址, QQ/微信), a labels row with a long or numbered label,
    a label whose note names the kind of value (号码（QQ）), a row that starts one column in (gridBefore)."""
    roster = word_table([["姓名", "住　　址", "QQ/微信"], ["张三", HOME, "123456789"], ["李四", HOME.replace("88", "99"), "987654321"]])
    text, _ = stored(roster)
    assert "建国路" not in text and "987654321" not in text, text
    family = word_table([["关系", "姓名", "QQ", "现工作单位名称及所在部门职务", "2025年收入（元）"],
                         ["配偶", "李四", "123456789", "某公司人事部专员", "100000"],
                         ["父亲", "张大", "987654321", "退休", "0"]])
    text, _ = stored(family)
    assert "987654321" not in text and "100000" in text, text
    noted = word_table([["姓名", "张三"], ["号码（QQ）", "123456789"], ["联系方式（家庭住址）", HOME]])
    assert "123456789" not in stored(noted)[0] and "建国路88号" not in stored(noted)[0]


def test_a_row_that_starts_one_column_in_keeps_its_cells_under_their_columns() -> None:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = Document()
    table = document.add_table(rows=3, cols=4)
    for i, row in enumerate([["姓名", "张三", "性别", "男"], ["QQ", "123456789", "民族", "汉"], ["", "", "籍贯", "北京"]]):
        for j, value in enumerate(row):
            table.cell(i, j).text = value
    table.cell(1, 1).merge(table.cell(2, 1))
    row = table.rows[2]._tr
    row.remove(row.findall(qn("w:tc"))[0])  # the row starts at the second grid column
    before = OxmlElement("w:gridBefore")
    before.set(qn("w:val"), "1")
    row.get_or_add_trPr().insert(0, before)
    out = io.BytesIO()
    document.save(out)
    text, _ = stored(out.getvalue())
    assert "123456789" not in text and "男：北京" in text, text  # 北京 under the column it sits in


def test_review_332_headers_with_numbers_a_member_row_of_words_and_a_key_value_policy() -> None:
    roster = word_table([["住　　址", "2024年度考核结果", "2025年度考核结果"], [HOME, "优秀", "良好"]])
    assert "建国路88号" not in stored(roster)[0]
    family = word_table([["姓名", "张三", "性别", "男"], ["关系", "姓名", "家庭住址", "备注"],
                         ["父亲", "张大山", "已故", "已故"], ["母亲", "李小花", HOME, "退休"]])
    assert "建国路88号" not in stored(family)[0]
    policy = word_table([["项目", "内容", "负责部门"], ["咨询电话", "0571-88886666", "人事部"],
                         ["2026.01-2026.06", "第一批：提交申请表", "人事部"]])
    text, counts = stored(policy)
    assert "2026.01-2026.06" in text and counts.get("landline", 0) <= 1, (text, counts)


def test_a_markdown_or_csv_form_is_masked_too() -> None:
    markdown = f"# 登记表\n\n| 姓名 | 张三 |\n|---|---|\n| 家庭住址 | {HOME} |\n".encode()
    assert "建国路88号" not in stored(markdown, "登记表.md")[0]
    csv = f"姓名,张三\n家庭住址,{HOME}\n".encode()
    assert "建国路88号" not in stored(csv, "登记表.csv")[0]
    many = "姓名,张三\n" + "".join(f"家庭住址,北京市朝阳区建国路{n}号3单元501室\n" for n in range(3000))  # no bound
    text, counts = stored(many.encode(), "登记表.csv", settings=Settings(max_chunks_per_file=10_000))
    assert "建国路" not in text and counts.get("address") == 3000


def test_data_tables_keep_their_headers_and_their_codes() -> None:
    roster = word_table([["姓名", "工号", "上级工号", "家庭住址"], ["张三", "E12345678", "E87654321", HOME]])
    text, _ = stored(roster)
    assert "工号：E12345678" in text and "上级工号：E87654321" in text
    assert "建国路88号" not in text and "家庭住址：北京市朝阳区[住址]" in text
    cities = word_table([["城市", "住宿标准（元/晚）"], ["北京", "600"], ["兰州", "380"]])
    assert "城市：北京，住宿标准（元/晚）：600" in stored(cities)[0]


def test_the_ingest_settings_decide() -> None:
    form = word_table([["姓名", "张三"], ["家庭住址", HOME], ["QQ", "123456789"]])
    assert HOME in stored(form, settings=Settings(redact_pii=False))[0]
    assert "123456789" not in stored(form)[0]
    kept, counts = stored(form, redact_disabled=frozenset({"qq"}))
    assert "123456789" in kept and HOME not in kept and not counts.get("qq")
