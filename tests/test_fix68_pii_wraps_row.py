"""Stop 67 left open: an ID a borderless table cell wrapped, with another number after it on its row (a phone in the
next cell), read back as "李四 110101199003 行政部 13800138000" then "074514": the last number of the line was tried
alone, so the ID's halves stayed as written. Every digit run of the line is tried now, still only on the number's
own checksum."""

from __future__ import annotations

from rag_core.text.pii import redact_text


def test_a_wrapped_id_with_a_phone_after_it_on_its_row_is_masked() -> None:
    masked = redact_text("李四 110101199003 行政部 13800138000\n074514 备注")
    assert masked == "李四 [身份证号] 行政部 [手机号]\n 备注"


def test_a_wrapped_card_with_an_amount_after_it_is_masked_and_the_amount_kept() -> None:
    assert redact_text("张三 6222021234567 工行 1200000\n890128") == "张三 [银行卡号] 工行 1200000\n"


def test_numbers_of_a_row_without_a_checksum_stay_as_written() -> None:
    """Control: a row's two amounts and the next line's count are no one's number."""
    for text in ("报销 110101199003 元 1200000\n074515", "金额 123456 元 654321\n2024"):
        assert redact_text(text) == text


def test_a_staff_number_before_a_date_line_stays() -> None:
    """Review 368 #3: any run of a row was tried as a card's upper half; an 8-digit 工号 and the next line's date pass
    the card's Luhn digit one time in ten (60012347 + 20240101 does)."""
    for text in ("张三 60012347 行政部 13800138000\n20240101 入职", "| 张三 | 60012347 | 1200000 |\n20240101 入职日期"):
        masked = redact_text(text)
        assert "60012347" in masked and "20240101" in masked, masked


def test_an_id_wrapped_nine_and_nine_with_a_phone_after_it_is_masked() -> None:
    """Review 369 #1: the 10-digit floor for a run with numbers after it held an ID's upper half too."""
    masked = redact_text("李四 110101199 行政部 13800138000\n003074514 备注")
    assert "110101199" not in masked and "003074514" not in masked and "[身份证号]" in masked


def test_a_staff_number_above_a_date_is_neither_joined_nor_slow() -> None:
    """Review 369 #5, #6: the pass that joins numbers across a line break took 60012347⏎20240101 for a card (both
    gone), and with the wrapped-cell rule declining dates it masked such lines one per pass (quadratic)."""
    import time

    assert redact_text("员工编号 60012347\n20240101 入职") == "员工编号 60012347\n20240101 入职"
    small, large = "60012347\n20240101\n" * 100, "60012347\n20240101\n" * 400
    redact_text(small)
    timings = []
    for text in (small, large):
        started = time.perf_counter()
        redact_text(text)
        timings.append(time.perf_counter() - started)
    assert timings[1] / max(timings[0], 1e-6) < 10, timings



def test_a_card_wrapped_above_a_date_shaped_tail_is_masked() -> None:
    """Review 370 #3: the date rule refused 62220212345⏎20240106 however long its upper half (a card's halves)."""
    from rag_core.text.checksums import luhn_valid

    number = next(f"622202123452024010{d}" for d in "123456789" if luhn_valid(f"622202123452024010{d}"))
    masked = redact_text(f"收款人 张三 {number[:11]}\n{number[11:]} 备注：报销款")
    assert number[:11] not in masked and "[银行卡号]" in masked
