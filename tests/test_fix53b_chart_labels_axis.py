"""The usage chart's document labels stay distinct on the axis after HR uploads a document without the company's
name (review 53 #3; fake embedder, real stores, AppTest).

The shared 星河科技有限公司 was dropped only while every title had it, and the axis (Streamlit's theme: 100 px) cut
the full titles to the same 星河科技有限公…, so the sample documents' bars could not be told apart."""

from __future__ import annotations

import json

from fakes import fake_assistant_with_samples
from test_pages_forms import LOCAL, open_page

from ui.tables import AXIS_LABEL_PX, LABEL_CHARS, chart_labels

SAMPLES = ["星河科技有限公司考勤与休假管理制度", "星河科技有限公司加班管理办法", "星河科技有限公司差旅与费用报销管理办法",
           "星河科技有限公司薪酬与福利管理制度", "星河科技有限公司入职与试用期管理办法", "星河科技有限公司离职管理办法",
           "星河科技有限公司培训管理办法", "星河科技有限公司远程办公管理办法"]
UPLOADED = "员工宠物友好办公制度"
THEME_CUT_CHARS = 100 // 12  # what Streamlit's own axis (labelLimit 100 px, 12 px labels) showed of a label


def test_one_title_without_the_company_name_keeps_it_off_the_others() -> None:
    labels = chart_labels([*SAMPLES, UPLOADED])
    assert labels == ["考勤与休假管理制度", "加班管理办法", "差旅与费用报销管理办法", "薪酬与福利管理制度", "入职与试用期管理办法",
                      "离职管理办法", "培训管理办法", "远程办公管理办法", UPLOADED]
    assert chart_labels(SAMPLES[:3] + [UPLOADED])[:3] == ["考勤与休假管理制度", "加班管理办法", "差旅与费用报销管理办法"]


def test_a_prefix_only_some_titles_share_is_kept() -> None:
    """Shared by two of five titles: not the name of most documents, so no title loses it."""
    titles = ["星河科技有限公司考勤制度", "星河科技有限公司加班制度", "年假制度", "报销制度", "差旅制度"]
    assert chart_labels(titles) == ["星河科技有限公司考勤制度", "星河科技有限公司加班制度", "年假制度", "报销制度", "差旅制度"]


def chart_of(at) -> tuple[dict, list[str]]:
    """The usage chart's Vega-Lite spec and the document labels it draws (its data travels as Arrow)."""
    import pyarrow as pa

    charts = at.get("vega_lite_chart")
    assert charts, "the usage chart is missing"
    proto = charts[-1].proto
    frames = [pa.ipc.open_stream(d.data.data).read_pandas() for d in proto.datasets]
    labels = next(list(f["文档"]) for f in frames if "文档" in f.columns)
    return json.loads(proto.spec), labels


def test_the_usage_axis_shows_whole_labels(tmp_path, monkeypatch) -> None:
    """Labels of up to LABEL_CHARS characters, cut by the axis only past that: distinct labels stay distinct."""
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("年假有几天？", remember=False, actor=LOCAL)
    at = open_page(assistant, tmp_path, monkeypatch, "pages/usage.py")
    assert not at.exception, [e.value for e in at.exception]
    spec, shown = chart_of(at)
    axis = spec["encoding"]["y"]["axis"]
    assert axis["labelLimit"] >= LABEL_CHARS * 12 and AXIS_LABEL_PX >= 12
    assert len(shown) == 8 and len(set(shown)) == 8
    assert len({label[:THEME_CUT_CHARS] for label in shown}) == 8  # even the theme's cut tells them apart now
