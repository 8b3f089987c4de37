"""The usage page's chart names each document by what tells it from the others: every full title of one company
was cut by the chart to the same 星河科技有限公… (review 51g 4)."""

from __future__ import annotations

from fakes import fake_assistant_with_samples
from test_pages_forms import LOCAL, open_page

from ui.tables import LABEL_CHARS, chart_labels


def test_labels_drop_the_shared_prefix_cut_long_ones_and_number_twins() -> None:
    titles = ["星河科技有限公司考勤与休假管理制度", "星河科技有限公司培训管理办法", "星河科技有限公司培训管理办法"]
    assert chart_labels(titles) == ["考勤与休假管理制度", "培训管理办法", "培训管理办法（2）"]
    assert chart_labels(["年假制度"]) == ["年假制度"]
    long = chart_labels(["员工手册" + "很长的标题" * 5, "报销制度"])[0]
    assert len(long) == LABEL_CHARS and long.endswith("…")


def test_a_prefix_is_dropped_only_where_a_name_ends_and_numbering_never_takes_a_real_title() -> None:
    """Review 51h 3: 员工手册（2023版）/（2024版） read 3版）/4版）, 考勤/考核 lost a character, and the third of
    差旅制度, 差旅制度（2）, 差旅制度 was labelled with the second document's real title."""
    assert chart_labels(["员工手册（2023版）", "员工手册（2024版）"]) == ["员工手册（2023版）", "员工手册（2024版）"]
    assert chart_labels(["星河科技考勤管理制度", "星河科技考核管理制度"]) == ["星河科技考勤管理制度", "星河科技考核管理制度"]
    assert chart_labels(["差旅制度", "差旅制度（2）", "差旅制度"]) == ["差旅制度", "差旅制度（2）", "差旅制度（3）"]


def test_the_usage_page_charts_distinct_labels(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("年假有几天？", remember=False, actor=LOCAL)
    at = open_page(assistant, tmp_path, monkeypatch, "pages/usage.py")
    assert not at.exception
