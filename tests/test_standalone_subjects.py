"""A question about a topic no visible policy mentions (班车, 健身房, 年会) gets zero hits.

Without this rule 公司有上下班班车吗 is matched to 上下班打卡 by its other words. The
rule reads the visible policies only: a document the reader may not see does not
make the topic "covered", and one the reader sees does.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.evaluation.metrics import is_refusal
from rag_core.search.retrieval import foreign_benefits
from rag_core.text.tokenizer import tokenize
from rag_core.text.vocabulary import standalone_subjects, subjects_named

ATTENDANCE = "# 考勤制度\n\n第一条 员工上下班须在门禁考勤机打卡，每日不少于2次。\n\n第二条 忘记打卡的，3个工作日内提交补卡申请。\n"
SHUTTLE = "# 通勤制度\n\n第一条 公司在工作日早晚各开行一班通勤车，员工凭工牌乘车。\n"
ADMIN = Principal("wang", "admin")
EMPLOYEE = Principal("zhang", "employee")


def test_the_list_is_general_vocabulary_with_other_names_per_topic():
    groups = standalone_subjects()
    assert len(groups) >= 40 and all(len(g) == len(set(g)) for g in groups)
    assert subjects_named("公司有上下班班车吗？") == [("班车", next(g for g in groups if "班车" in g))]
    assert subjects_named("公司有股票期权激励计划吗？")[0][0] == "股票期权"  # the longest name used
    assert subjects_named("年假有几天？") == [] and subjects_named("出差住宿标准是多少？") == []
    # found by review: 年会 inside 每年会, and words that turn up in questions about something else
    for question in ("每年会调薪吗？", "中秋节加班工资怎么算？", "午餐补贴每月多少钱？", "出差能顺便旅游吗？"):
        assert subjects_named(question) == [], question
    assert subjects_named("推荐朋友入职有没有内推奖金？")[0][0] == "内推"  # jieba cuts 内 | 推奖金: still a word start


@pytest.fixture()
def assistant(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    assert facade.ingest_bytes(ATTENDANCE.encode("utf-8"), "attendance.md").ok
    return facade


def test_a_topic_no_policy_mentions_gets_zero_hits_and_a_refusal(assistant):
    result = assistant.search("公司有上下班班车吗？")
    assert result.hit_count == 0 and result.foreign_subjects == ["班车"]
    assert any("班车" in w for w in result.warnings)
    assert is_refusal(assistant.ask("公司有上下班班车吗？", user="").answer)
    assert assistant.search("上下班忘记打卡怎么办？").foreign_subjects == []  # the policy's own topic


def test_another_name_of_the_topic_in_a_visible_policy_counts(assistant):
    assert assistant.search("公司有上下班班车吗？").foreign_subjects == ["班车"]  # the scan is cached …
    assert assistant.ingest_bytes(SHUTTLE.encode("utf-8"), "shuttle.md").ok  # … until this (says 通勤车, not 班车)
    result = assistant.search("公司有上下班班车吗？")
    assert result.foreign_subjects == []  # which clause answers is the model's call (test_engine: real e5)


def test_a_policy_the_reader_may_not_see_does_not_cover_the_topic(assistant):
    assert assistant.ingest_bytes(SHUTTLE.encode("utf-8"), "shuttle.md", audience=["hr"]).ok
    for principal in (ADMIN, EMPLOYEE):
        assistant.add_user(principal.user, principal.role, "correct horse", principal.audiences, actor=ADMIN)
    assert assistant.search("公司有上下班班车吗？", actor=EMPLOYEE).foreign_subjects == ["班车"]
    assert assistant.search("公司有上下班班车吗？", actor=ADMIN).foreign_subjects == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("公司发的宠物补贴有多少？", ["宠物补贴"]),  # 宠物 is used by no policy; 补贴 by many
        ("中介让我先交一笔押金，这样可以吗？", []),  # 一笔 says how much, not which deposit
        ("我请了好多天事假，会扣钱吗？", []),
        ("出国打工要交押金吗？", []),  # 要交 is a verb: it asks whether one is due, not about a kind of deposit
        ("公司有会议补贴吗？", ["会议补贴"]),  # 会议 is a noun that happens to start with 会
        ("那现在晚上加班的饭钱能补多少？", []),  # 能补 ends like 餐补 but is a piece the search cut, no word
        ("过年公司发啥福利？", []),  # 发啥 is the search's cut across 发/啥: it asks, it names no benefit
        ("超过10天请病假交什么证明？", []),  # 天请 is cut across 10天/请: 病假 is named plainly
        ("周末部门一起出去活动，算不算加班？", []),  # 出去 is a verb: it says what is done, not which activity
        ("部门年会活动有预算吗？", ["年会活动"]),  # 年会 is a noun: a kind of activity no policy names
        ("公司有健身补贴吗？", ["健身补贴"]),  # 健身 is tagged a verb, but 补贴 is a benefit: a kind of it (review)
        ("停车补贴每月多少？", ["停车补贴"]),
        ("有没有岗位津贴？", ["岗位津贴"]),  # the reading keeps 岗位津贴 whole: no piece cut across two words (review)
        ("公司有亲子活动吗？", ["亲子活动"]),
    ],
)
def test_a_benefit_named_with_an_unknown_word_is_foreign_but_an_amount_is_not(question, expected):
    tokens = tokenize(question)
    assert foreign_benefits(question, tokens, {"补贴": 5, "押金": 2, "事假": 3}, {}) == expected


def test_a_scan_that_overlapped_an_upload_is_not_kept(assistant):
    """Found by review: a scan read before an upload committed must not be cached under the new generation."""
    catalog = assistant.catalog
    scan = catalog.versions_mentioning

    def scan_then_upload(words):
        found = scan(words)
        catalog.versions_mentioning = scan  # once
        assert assistant.ingest_bytes(SHUTTLE.encode("utf-8"), "shuttle.md").ok
        assistant.search("公司有健身房吗？")  # another session's question after the upload renews the cache
        return found

    catalog.versions_mentioning = scan_then_upload
    assert assistant.search("公司有上下班班车吗？").foreign_subjects == ["班车"]  # read before the upload
    assert assistant.search("公司有上下班班车吗？").foreign_subjects == []  # not the stale scan
