"""The count charts of 知识缺口 and 使用情况 tick whole numbers: one question read 0.00–1.00 in steps of 0.05 (the UX
walkthrough of stop 58)."""

from __future__ import annotations

import pandas as pd

from ui.tables import labelled_bar_chart


def test_the_count_axis_ticks_whole_numbers():
    spec = labelled_bar_chart(pd.DataFrame({"问题": ["年假有几天"], "次数": [1]}), "问题", "次数").to_dict()
    axis = spec["encoding"]["x"]["axis"]
    assert axis["format"] == "d" and axis["tickMinStep"] == 1
