"""Review 353: an ID or bank card number a borderless table cell wrapped reads back row by row, the row's other cells
between its halves ("李四 110101199003 行政部" then "074514"); joined on the number's own checksum and masked."""

from __future__ import annotations

import io

from fakes import fake_assistant

from rag_core import Principal
from rag_core.text.pii import redact, redact_text


def test_a_wrapped_id_with_another_cell_between_its_halves_is_masked() -> None:
    assert redact_text("李四 110101199003 行政部\n074514") == "李四 [身份证号] 行政部\n"


def test_a_wrapped_bank_card_is_masked_and_the_rest_of_the_next_line_kept() -> None:
    assert redact_text("张三 6222021234567 工行\n890128 备注") == "张三 [银行卡号] 工行\n 备注"


def test_halves_without_a_valid_checksum_stay_as_written() -> None:
    """Control (passes before too): a row's amount and the next line's year are no one's number."""
    for text in ("李四 110101199003 行政部\n074515", "金额 123456 元\n2024", "第5条 1200\n30"):
        assert redact_text(text) == text


def test_a_disabled_category_leaves_the_halves_and_is_not_counted() -> None:
    result = redact("李四 110101199003 行政部\n074514", frozenset({"id_card"}))
    assert result.text == "李四 110101199003 行政部\n074514" and result.counts["id_card"] == 0


def test_a_borderless_pdf_table_with_a_wrapped_id_is_stored_masked(tmp_path) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    c.setFont("STSong-Light", 12)
    c.drawString(50, 800, "第一条 员工通讯录如下，仅供内部使用，请勿外传。")
    t = c.beginText(50, 780)
    t.setFont("STSong-Light", 12)
    t.textOut("姓名"), t.moveCursor(100, 0), t.textOut("身份证号"), t.moveCursor(150, 0), t.textOut("部门")
    t.moveCursor(-250, 20)
    t.textOut("李四"), t.moveCursor(100, 0), t.textOut("110101199003"), t.moveCursor(150, 0), t.textOut("行政部")
    t.moveCursor(-150, 14), t.textOut("074514")  # the 身份证号 cell's second line
    c.drawText(t)
    c.save()
    assistant = fake_assistant(tmp_path)
    hr = Principal("li", "hr")
    report = assistant.ingest_bytes(buf.getvalue(), "通讯录.pdf", actor=hr)
    assert report.ok, report.error
    stored = "\n".join(chunk.text for chunk in assistant.document_chunks(report.doc_id, actor=hr))
    assert "110101199003" not in stored and "074514" not in stored and "[身份证号]" in stored


def test_a_number_wrapped_after_a_spaced_dash_is_masked() -> None:
    """138 -⏎0013-8000: the dash may have spaces before it on its line, as one inside a line may (helper 354)."""
    assert redact_text("联系电话：138 -\n0013-8000") == "联系电话：[手机号]"


def test_a_label_alone_on_its_line_masks_the_value_opening_the_next() -> None:
    """A form laid out label above value (QQ号⏎12345678, 微信⏎zhangsan_1990) was stored unmasked (review 353)."""
    assert redact_text("QQ号\n12345678") == "QQ号\n[QQ号]"
    assert redact_text("微信\nzhangsan_1990") == "微信\n[微信号]"


def test_a_column_heading_above_amounts_is_not_a_label_for_them() -> None:
    """Control (passes before too): 个人账户 above a row of amounts, 电话 above a date stay as written."""
    for text in ("个人账户\n800 1000 1200", "电话\n2024年1月", "第三条 电话费\n300元每月"):
        assert redact_text(text) == text
