"""Review 358's defects in the third round of this stop's fixes (fake embedder, real stores). Each test is one of the
review's reproductions (/tmp/rev_r358/repro_NN.py) and failed before the fix, unless its docstring says it is a control:

- #1: <dt>QQ号</dt><dd><p>12345678</p></dd> (Word or CMS HTML) read the term apart from its value: QQ号, account and
  address stored unmasked.
- #2: a nested <dl> was read in quadratic time (each <dd> listed its whole subtree to look for a block).
- #3: 手机 / 座机 / 传真 / QQ as a heading above a policy sentence masked the date or amount opening it.
- #4: a landline wrapped after a full-width dash (－), or with a full-width space or tab after the dash, stayed whole.
- #5: an ID whose line wrapped just before its check character X stayed whole.
- #6: a label that says whose (联系电话, 本人QQ号, 紧急联系人手机) lent no context to the value on the line below.
- #7: a table-wrapped ID was joined with LF line ends but not with CRLF.
- #9: re-uploading onto an older id kept unmasked counted a 座机号 as masked in the upload report.
- #11: a <dd> after a nested <dl> lost its term (the inner list's end reset the outer one's).
- #12: a one-column CSV lost its first rows (read as captions of a table that was not there).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4.element import Tag
from fakes import fake_assistant

from rag_core import Principal
from rag_core.documents.html_format import html_lines
from rag_core.text.checksums import id_card_valid
from rag_core.text.pii import redact_text

HR = Principal("li", "hr")


def texts(html: str) -> list[str]:
    return [line.text for line in html_lines(html)[0] if line.text]


def stored(tmp_path: Path, data: bytes, name: str) -> tuple[object, str]:
    """Upload `data` as `name` to a fresh store: the report and the stored chunks' text."""
    a = fake_assistant(tmp_path / "store")
    report = a.ingest_bytes(data, name, actor=HR)
    assert report.ok, report.error
    return report, "\n".join(c.text for c in a.document_chunks(report.doc_id, actor=HR))


# -- #1: a description's value in a <p> is still read beside its term -------------------------------------------

def test_a_description_value_in_a_paragraph_is_masked_beside_its_term(tmp_path: Path) -> None:
    """#1 (repro_01, review 358): each value in its own <p>, as Word and CMS pages write them, was stored a blank line
    below its term, where no label rule reaches: QQ号, salary account and home address in clear text."""
    html = """<html><body><h1>值班联系方式</h1><dl>
      <dt>QQ号</dt><dd><p>12345678</p></dd>
      <dt>工资卡账号</dt><dd><p>6222 0212 3456 7891</p></dd>
      <dt>家庭住址</dt><dd><p>北京市朝阳区建国路88号院3号楼2单元501室</p></dd>
    </dl></body></html>"""
    _, text = stored(tmp_path, html.encode(), "值班联系.html")
    assert [v for v in ("12345678", "6222 0212 3456 7891", "2单元501室") if v in text] == []
    assert "QQ号" in text and "工资卡账号" in text and "家庭住址" in text


# -- #2: nested description lists are read in linear time ---------------------------------------------------------

def nested_dl(levels: int) -> str:
    return "<dl><dt>条款</dt><dd>" * levels + "内容" + "</dd></dl>" * levels


def nodes_walked(html: str, patch: pytest.MonkeyPatch) -> int:
    """How many tree nodes reading `html` walks through bs4's `descendants` and `children` (no clock involved)."""
    walked = [0]

    def counting(prop: property) -> property:
        def get(self):
            for node in prop.fget(self):
                walked[0] += 1
                yield node
        return property(get)

    with patch.context() as p:
        p.setattr(Tag, "descendants", counting(Tag.descendants))
        p.setattr(Tag, "children", counting(Tag.children))
        html_lines(html)
    return walked[0]


def test_a_deeply_nested_description_list_is_read_whole_and_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """#2 (repro_02, review 358): every <dd> listed its whole subtree (find_all) to look for a block, so 8,000 nested
    levels took 17 s. Counted in nodes walked, not timed: doubling the depth must about double the walk (it
    quadrupled), and a 3,000-level list is read without error, every term and the innermost value kept."""
    small, large = nodes_walked(nested_dl(400), monkeypatch), nodes_walked(nested_dl(800), monkeypatch)
    assert large <= 2.5 * small, (small, large)
    assert large <= 40 * 800, large  # a bounded number of nodes per level
    lines = texts(nested_dl(3000))
    assert lines[-1] == "条款：内容"
    assert lines[:-1] == ["条款"] * 2999


# -- #3: a heading word above a policy sentence lends it no context -----------------------------------------------

def test_dates_and_amounts_under_a_phone_heading_stay_as_written() -> None:
    """#3 (repro_03, review 358): the label-above rule took any number shape opening the next line, so 手机 above
    2024-01-01起 stored [座机号]起; the value must be its line's whole text. The last assertion is a control: a real
    value under its label is still masked."""
    text = ("二、通讯费报销标准\n手机\n2024-01-01起，经理级每月报销不超过300元。\n座机\n2024-01-01起，按实际发生额报销。\n"
            "传真\n1000-2000元/年的标准按职级执行。\nQQ\n10000 元以下的软件采购由部门经理审批。")
    assert redact_text(text) == text
    assert redact_text("QQ号\n12345678") == "QQ号\n[QQ号]"


# -- #4: a landline wrapped after a full-width dash ---------------------------------------------------------------

@pytest.mark.parametrize("text", ["请拨打0571－\n88886666咨询", "请拨打0571-\u3000\n88886666咨询", "请拨打0571-\t\n88886666咨询"],
                         ids=["fullwidth-dash", "fullwidth-space", "tab"])
def test_a_landline_wrapped_after_a_fullwidth_dash_or_space_is_masked(text: str) -> None:
    """#4 (repro_04, review 358): the landline join's gate read an ASCII dash and plain spaces only; the 「－」 a
    Chinese IME types, or a full-width space or tab after the dash, left the number whole."""
    assert redact_text(text) == "请拨打[座机号]咨询"


# -- #5: an ID cut just before its check character -----------------------------------------------------------------

@pytest.mark.parametrize("text", ["王五 11010119900307002 财务部\nX\n", "11010119900307002\nX"], ids=["row", "alone"])
def test_an_id_wrapped_before_its_check_character_x_is_masked(text: str) -> None:
    """#5 (repro_05, review 358): the next line's part needed at least one digit, so an ID whose column wrapped just
    before its X (about 1 ID in 11 in a 17-wide column) was stored whole."""
    assert id_card_valid("11010119900307002X")
    assert "11010119900307002" not in redact_text(text)


# -- #6: a label that says whose ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["联系电话\n88886666", "办公电话\n88886666", "个人微信\nzhangsan_1990", "本人QQ号\n12345678",
                                  "紧急联系人手机\n88886666"])
def test_a_qualified_label_above_its_value_masks_it(text: str) -> None:
    """#6 (repro_06, review 358): the label-above rule pinned the word to the line's start, so 联系电话, the most
    common label on a form, lent no context while 电话 did."""
    label, value = text.split("\n")
    masked = redact_text(text)
    assert value not in masked and masked.startswith(label + "\n")


# -- #7: CRLF line ends ---------------------------------------------------------------------------------------------

def test_a_table_wrapped_id_is_joined_with_crlf_line_ends() -> None:
    """#7 (repro_07, review 358): a memory, question or comment pasted with \\r\\n kept the wrapped ID whole (the
    lower half's lookahead did not accept \\r); the LF form, checked first as a control, was masked."""
    lf = "李四 110101199003 行政部\n074514\n"
    assert "074514" not in redact_text(lf)
    crlf = redact_text(lf.replace("\n", "\r\n"))
    assert "074514" not in crlf and "110101199003" not in crlf


# -- #9: the upload report counts no mask it did not make --------------------------------------------------------

def test_reusing_an_older_unmasked_id_counts_no_mask(tmp_path: Path) -> None:
    """#9 (repro_09, review 358): the id was masked (and counted) before review 354's exception put the older
    unmasked id back: the report said 座机号 1 处已脱敏 while nothing had been masked."""
    a = fake_assistant(tmp_path / "store")
    text = "# 热线说明\n\n第一条 热线工作时间为工作日。\n".encode()
    assert a.ingest_bytes(text, "热线 010（12345678）.md", redact_disabled=["landline"], actor=HR).ok
    second = a.ingest_bytes(text + "第二条 周末不值班。\n".encode(), "热线 010（12345678）.md", actor=HR)
    chunks = "\n".join(c.text for c in a.document_chunks(second.doc_id, actor=HR))
    assert second.doc_id == "热线_010_12345678" and "[座机号]" not in chunks
    assert second.redactions.get("landline", 0) == 0


# -- #11: a nested list keeps the outer term ----------------------------------------------------------------------

def test_a_description_after_a_nested_list_keeps_its_term() -> None:
    """#11 (repro_11, review 358): one shared term, reset at the inner <dl>'s end, left QQ号's next value bare and
    unmasked."""
    lines = texts("<html><body><h1>值班</h1><dl><dt>QQ号</dt><dd>12345678</dd>"
                  "<dd><dl><dt>备注</dt><dd>工作日</dd></dl></dd><dd>87654321</dd></dl></body></html>")
    assert lines[1:] == ["QQ号：12345678", "备注：工作日", "QQ号：87654321"]
    masked = redact_text("\n".join(lines))
    assert "12345678" not in masked and "87654321" not in masked


# -- #12: a one-column CSV ------------------------------------------------------------------------------------------

def test_a_one_column_csv_keeps_all_its_rows(tmp_path: Path) -> None:
    """#12 (repro_12, review 358): its first rows were taken for a table's captions and dropped without a word."""
    _, text = stored(tmp_path, "标题\n甲乙\n丙丁\n戊己\n庚辛\n".encode(), "清单.csv")
    assert [w for w in ("标题", "甲乙", "丙丁", "戊己", "庚辛") if w not in text] == []
