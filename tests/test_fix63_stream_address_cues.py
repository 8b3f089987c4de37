"""A streamed answer holds back an address after 搬到 / 寄到 as it does after 住在: masking (`text.pii_address`) takes a
home's address after those words, so the screen must never show what the stored answer masks (review 300)."""

from __future__ import annotations

import pytest
from test_masked_stream import shown_over_time

from rag_core.text.pii import redact_text

CLAUSE = "根据制度，一线城市住宿每晚上限600元[资料1]。"


@pytest.mark.parametrize("told", ["请把材料寄到我家杭州市西湖区中山北路138号3单元501室", "我家搬到了杭州市西湖区文三路138号"])
def test_an_address_after_a_moving_or_mailing_word_never_shows_while_streaming(told: str) -> None:
    text = f"{CLAUSE}{told}，收到后三个工作日内办理。{CLAUSE}"
    masked = redact_text(text)
    assert "138号" not in masked  # the masking takes it: the stream must hold it back
    for step in (1, 2, 3, 5):
        moments, final = shown_over_time(text, list(range(0, len(text), step)))
        assert all(masked.startswith(moment) for moment in moments), step
        assert final == masked


def test_a_mailing_word_before_an_office_still_streams() -> None:
    text = f"{CLAUSE}材料请寄到人力资源部，我们会尽快处理，处理结果会通过邮件告诉你。{CLAUSE}"
    moments, final = shown_over_time(text, list(range(0, len(text), 2)))
    assert final == redact_text(text) == text
    assert moments[len(moments) // 2]  # shown while it came, not held to the end
