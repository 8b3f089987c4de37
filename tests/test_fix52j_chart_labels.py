"""Review 52j #4: the usage chart cut off exactly what tells two versions apart (…（2… for both), and numbering went
past LABEL_CHARS."""

from __future__ import annotations

from ui.tables import LABEL_CHARS, chart_labels

V2023, V2024 = "员工考勤与休假管理制度（2023年修订版）", "员工考勤与休假管理制度（2024年修订版）"


def test_titles_cut_alike_keep_head_and_tail() -> None:
    labels = chart_labels([V2023, V2024])
    assert labels == ["员工考勤…2023年修订版）", "员工考勤…2024年修订版）"]
    assert all(len(label) <= LABEL_CHARS for label in labels)


def test_a_numbered_label_stays_within_the_limit() -> None:
    labels = chart_labels([V2024, V2024, V2024, "报销制度"])
    assert len(set(labels)) == 4 and all(len(label) <= LABEL_CHARS for label in labels), labels
    assert labels[1].endswith("（2）") and labels[2].endswith("（3）")


def test_a_long_title_alone_is_still_cut_at_the_end() -> None:
    assert chart_labels([V2023, "报销制度"]) == [V2023[: LABEL_CHARS - 1] + "…", "报销制度"]
