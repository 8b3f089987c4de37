"""Review own3 D5: the stream settled inside a long estate name after an address cue (北山路西子湖畔宝石山下香格里拉公寓,
12+ characters without a place word) and showed it before the mask took it. While a cue is open, text is held until a
stop mark or as far as masking's place part runs without a place or number word (`pii_address.PLACE_REACH`)."""

from __future__ import annotations

import pytest
from test_masked_stream import shown_over_time

from rag_core.text.pii import redact_text

P = "根据公司《员工手册》第十二条的规定，员工可以申请调整工作地点，具体流程如下所述。"


@pytest.mark.parametrize("body", ["员工张三登记的现住址是杭州市西湖区阳光美丽幸福和谐温馨舒适公寓3幢201室",
                                  "张三住在杭州市西湖区北山路西子湖畔宝石山下香格里拉公寓3幢201室"])
def test_a_long_estate_name_is_never_shown_before_its_mask(body: str) -> None:
    text = f"{P}{body}，请核对。{P}"
    masked = redact_text(text)
    assert "[住址]" in masked and "香格里拉" not in masked and "温馨舒适" not in masked
    for step in (1, 2, 3):
        moments, final = shown_over_time(text, list(range(0, len(text), step)))
        assert all(masked.startswith(moment) for moment in moments), step
        assert final == masked


def test_text_after_a_cue_streams_once_a_comma_ends_it() -> None:
    text = f"{P}员工地址变更的，应在变更后三十日内告知人力资源部，逾期未告知的后果由员工承担。{P}"
    moments, final = shown_over_time(text, list(range(0, len(text), 2)))
    assert final == redact_text(text) == text
    assert moments[len(moments) // 2]
