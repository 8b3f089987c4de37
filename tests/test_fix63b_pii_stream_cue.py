"""Review own1 D3: the stream showed part of a home address the final mask removes (身份证地址浙江省…, 家里地址 文三路…,
收货人地址…), as its cue for an address was its own list of 地址 labels. The cue is now the masker's own trigger
(`pii_address.ADDRESS_CUE`), so the two cannot drift; policy text with 地址 still streams."""

from __future__ import annotations

import pytest
from test_masked_stream import shown_over_time

from rag_core.text.pii import redact_text

CLAUSE = "根据制度，一线城市住宿每晚上限600元[资料1]。"
BODIES = ["员工说身份证地址浙江省温州市鹿城区五马街12号", "员工说紧急联系人地址上海市徐汇区漕溪北路88号",
          "员工说家里地址 文三路幸福家园3幢201室", "员工说收货人地址文三路幸福家园3幢201室",
          "我说地址于杭州市西湖区文三路幸福家园3幢201室", "请寄到我家：杭州市西湖区文三路90号3幢201室"]


@pytest.mark.parametrize("body", BODIES)
def test_the_stream_never_shows_what_the_mask_takes(body: str) -> None:
    text = f"{CLAUSE}{body}，请核对。{CLAUSE}"
    masked = redact_text(text)
    assert "[住址]" in masked
    for step in (1, 3):
        moments, final = shown_over_time(text, list(range(0, len(text), step)))
        assert all(masked.startswith(moment) for moment in moments), step
        assert final == masked


def test_policy_text_with_an_address_word_still_streams() -> None:
    text = f"{CLAUSE}员工地址变更的，应在变更后三十日内告知人力资源部，逾期未告知的后果由员工承担。{CLAUSE}"
    moments, final = shown_over_time(text, list(range(0, len(text), 2)))
    assert final == redact_text(text) == text
    assert moments[len(moments) // 2]  # shown while it came, not held to the end
