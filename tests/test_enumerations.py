"""An enumeration (parts ended by ；) is one rule: the offline answer quotes all of its parts, whatever the sentence
limit (the UX walkthrough of stop 58 found 年假 quoted with two bands of three, and 病假工资 cut at its ；)."""

from __future__ import annotations

from rag_core.answer.enumerations import ENUMERATION_PARTS, whole_enumerations
from rag_core.answer.extractive import ExtractiveAnswerer, Quote
from rag_core.types import SourceRef

BANDS = SourceRef(
    number=1,
    text=("第七条 年假天数\n在法定年假的基础上，员工每连续工作满1年，增加1天福利年假，福利年假最多增加至5天。\n"
          "员工累计工作已满1年不满10年的，每年可享受带薪年假5天；已满10年不满20年的，每年可享受带薪年假10天；"
          "已满20年的，每年可享受带薪年假15天。\n年假以半天为最小单位申请。"),
    source="考勤与休假管理制度.md", section="第三章 > 第七条 年假天数", chunk_id="leave@v1#7",
)
SICK = SourceRef(
    number=1,
    text=("第九条 病假工资\n员工因病需要休息的，应在当日上班时间前向直接上级请假。"
          "每年累计10天以内的病假，病假工资按本人基本工资的80%发放；超过10天的部分，按当地最低工资标准的80%发放。"),
    source="考勤与休假管理制度.md", section="第三章 > 第九条 病假工资", chunk_id="leave@v1#9",
)


def test_every_band_is_quoted_under_the_sentence_limit():
    answer = ExtractiveAnswerer().answer("年假有几天？", [BANDS], max_sentences=3)
    for band in ("带薪年假5天", "带薪年假10天", "带薪年假15天"):
        assert band in answer, answer
    assert answer.index("带薪年假5天") < answer.index("带薪年假10天") < answer.index("带薪年假15天")


def test_a_rule_is_not_cut_at_its_semicolon():
    answer = ExtractiveAnswerer().answer("病假工资怎么发？", [SICK], max_sentences=3)
    assert "基本工资的80%发放" in answer and "超过10天的部分" in answer, answer


def test_the_lead_stays_first_and_a_part_is_quoted_once():
    quotes = [Quote(t, 1, i, False, True) for i, t in enumerate(["甲；", "乙；", "丙。", "丁。"])]  # one line
    out = whole_enumerations([quotes[1], quotes[3], quotes[0]], quotes)
    assert [q.text for q in out] == ["乙；", "甲；", "丙。", "丁。"]
    assert whole_enumerations([quotes[3]], quotes) == [quotes[3]]


def test_a_list_longer_than_the_cap_is_cases_not_one_rule():
    """Review 213: capping an 11-item list from its start quoted items 1-8 instead of the 11th that answered."""
    quotes = [Quote(f"第{i}项；", 1, i, False, True) for i in range(ENUMERATION_PARTS + 1)]
    assert whole_enumerations([quotes[8]], quotes) == [quotes[8]]
    items = "；".join(f"（{n}）{case}" for n, case in enumerate(
        ["旷工3日以上的", "严重违反考勤的", "泄露商业秘密的", "打架斗殴的", "伪造病假证明的", "私自兼职的",
         "损坏公司财物的", "骚扰同事的", "酒后上岗的", "收受供应商回扣的", "被依法追究刑事责任的"], start=1))
    rules = SourceRef(number=1, text=f"第二十条 解除\n员工有下列情形之一的，公司可以解除劳动合同：{items}。",
                      source="奖惩制度.md", section="第二十条 解除", chunk_id="rules@v1#20")
    answer = ExtractiveAnswerer().answer("被追究刑事责任会被解除劳动合同吗？", [rules], max_sentences=3)
    assert "被依法追究刑事责任的" in answer and "酒后上岗的" not in answer, answer  # not items 2-8


def test_list_items_on_their_own_lines_are_not_one_enumeration():
    items = SourceRef(
        number=1,
        text="### 年假\n- 年假当年内有效，未休完的年假视作自动放弃；\n- 员工在公司连续工作满1年以上不满10年，年假5天；\n- 年假可用于抵扣其它假别；\n",
        source="手册.md", section="年假", chunk_id="book@v1#3",
    )
    answer = ExtractiveAnswerer().answer("年假没休完能留到明年吗？", [items], max_sentences=1)
    assert answer.count("[资料1]") == 1, answer  # one item, not the list


def test_one_answer_adds_at_most_the_cap_of_parts():
    first = [Quote(f"甲{i}；" if i < 5 else f"甲{i}。", 1, i, False, True) for i in range(6)]
    second = [Quote(f"乙{i}；" if i < 5 else f"乙{i}。", 2, i, False, True) for i in range(6)]
    out = whole_enumerations([first[0], second[0]], first + second)
    assert len(out) == 7 and out[-1] == second[0]  # the first list whole (5 added), the second left as quoted
