"""Follow-up questions: when a question leans on the previous turn, and what it becomes standalone.

Rules offline (no model), the LLM rewrite through the loopback OpenAI-compatible
stub with the real `openai` client, and the eval file's shape. The recall of the
whole eval set through the real engine is `bench/followups.py` (docs/retrieval.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import QueuedLLM
from openai_stub_server import OpenAIStubServer

from rag_core.answer.llm import OpenAICompatibleClient
from rag_core.conversations.followup import (
    CERTAIN,
    SHORT,
    dependence,
    keeps_own_words,
    names_unknown_subject,
    rule_rewrite,
    subject_of,
    subject_words,
)
from rag_core.conversations.rewrite import MAX_TOKENS, build_prompt, clean_reply, llm_rewrite
from rag_core.conversations.statements import acknowledgement, split_turn
from rag_core.evaluation.followups import load_dialogues

ROOT = Path(__file__).resolve().parent.parent
DIALOGUES = ROOT / "tests" / "data" / "followups.jsonl"
SAMPLES = ROOT / "data" / "samples"

# Complete questions, asked after an unrelated turn: never rewritten.
STANDALONE = [
    "年假有几天？", "打车费能报吗？", "病假工资怎么发放？", "员工离职时没休的年假怎么处理？", "公司几点上班？",
    "工资几号发？", "出差住宿标准是多少？", "试用期员工辞职要提前几天通知？", "婚假可以分开休吗？",
    "加班费的计算基数是什么？", "远程办公每周最多几天？", "年终奖什么时候发？",
]  # fmt: skip


@pytest.mark.parametrize("question", STANDALONE)
def test_a_question_that_stands_on_its_own_is_never_rewritten_on_grammar_alone(question: str):
    """At most a tentative rewrite, which its own search settles (tests/test_followup_decision.py)."""
    for previous in ("出差住宿标准是多少？", "婚假有几天？", "加班要申请吗？"):
        if question == previous:
            continue
        result = rule_rewrite(question, previous)
        assert result.tentative or (not result.rewritten and result.question == question), (previous, result)


@pytest.mark.parametrize(
    ("question", "unknown", "new_topic"),
    [("公司有班车吗？", ["班车"], True), ("那有班车接送吗", ["班车"], True), ("公司有上下班班车吗", ["班车"], True),
     ("没去的话能换成钱吗", ["换成"], False), ("今年休不完能留到明年吗", ["今年", "留到", "明年"], False),
     ("工资照发吗", ["照发"], False), ("有食堂吗", [], False),
     # search words are lower-case; a piece cut from a known noun is not the noun (review)
     ("iPad能报吗", ["ipad"], True), ("打车费能报吗", ["车费"], False)],
)
def test_only_a_noun_the_policies_never_use_makes_a_question_a_new_topic(question: str, unknown: list[str], new_topic: bool):
    """A verb or time word they never use (换成, 照发, 今年) asks about the topic under discussion."""
    assert names_unknown_subject(question, unknown) is new_topic


@pytest.mark.parametrize(
    ("question", "subjects"),
    [("公司有班车吗？", ["班车"]), ("有食堂吗", ["食堂"]), ("能报吗？", []), ("一个月能补几次", []),
     ("需要谁审批？", []), ("试用期能延长吗？", ["试用期"]), ("网约车行程单要吗", ["网约车", "行程单"])],
)
def test_a_subject_is_a_noun_by_part_of_speech_not_a_listed_topic(question: str, subjects: list[str]):
    assert subject_words(question) == subjects


def test_a_question_with_no_content_word_is_left_to_its_search():
    """No content word jieba tags is no proof of a fragment: 公司能招16岁以下的人吗 names none (招 is one character,
    公司 and 人 say nothing) and stands alone. The glued form is tried, and taken only when its search reads
    clearly more answerable (stop 43: open sessions +3 complete questions as typed, fresh and dialogues unchanged)."""
    result = rule_rewrite("一个月能补几次", "忘记打卡了怎么办？")
    assert result.rewritten and result.tentative and result.question.startswith("忘记打卡")
    alone = rule_rewrite("公司能招16岁以下的人吗", "哺乳期每天有时间喂奶吗？")
    assert alone.tentative and alone.reason == "没有说主题"


def test_without_a_previous_turn_nothing_is_rewritten():
    for question in ("那一线城市呢？", "这个需要谁审批？", "几天？"):
        assert rule_rewrite(question, None).question == question


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        ("出差住宿标准是多少？", "那一线城市呢？", "一线城市出差住宿标准是多少？"),
        ("一线城市出差住宿标准是多少？", "那二线城市呢？", "二线城市出差住宿标准是多少？"),
        ("年假有几天？", "那病假呢？", "病假有几天？"),
        ("工作日加班费怎么算？", "那周末呢？", "周末加班费怎么算？"),
        ("年假有几天？", "它能顺延吗？", "年假能顺延吗？"),
        ("一线城市出差住宿标准是多少？", "这个需要谁审批？", "一线城市出差需要谁审批？"),
        ("婚假有几天？", "需要什么材料？", "婚假需要什么材料？"),
        ("出差住宿标准是多少？", "上面说的标准包含早餐吗", "出差住宿标准包含早餐吗"),
        ("试用期多长？", "这期间工资怎么算？", "试用期工资怎么算？"),
        ("工龄津贴有多少？", "最高多少？", "工龄津贴最高多少？"),
    ],
)
def test_rules_carry_the_subject_and_its_qualifiers(previous: str, question: str, expected: str):
    result = rule_rewrite(question, previous)
    assert result.rewritten and result.question == expected, result


@pytest.mark.parametrize("question", ["这个月工资什么时候发？", "这个季度的绩效奖金什么时候发？", "那些年终奖要交税吗？", "这个周末值班有补贴吗？"])
def test_a_demonstrative_before_a_noun_of_its_own_is_no_reference_back(question: str):
    """这个月工资 names its own subject: glued to 婚假有几天 it became 婚假月工资什么时候发. A question
    that names no noun besides (这个周末值班有补贴吗) is left to its own search (tentative), never glued outright."""
    rewrite = rule_rewrite(question, "婚假有几天？")
    assert rewrite.reason != "指代上文"
    assert rewrite.question == question or rewrite.tentative


@pytest.mark.parametrize(
    ("question", "expected"),
    [("这个需要谁批？", "婚假需要谁批？"), ("这笔钱什么时候到账？", "婚假钱什么时候到账？"),
     ("这些材料要原件吗？", "婚假材料要原件吗？")],
)
def test_a_demonstrative_before_a_verb_or_a_placeholder_points_back(question: str, expected: str):
    assert rule_rewrite(question, "婚假有几天？").question == expected


def test_another_question_is_not_a_continuation():
    """另外 opens another question (另外问一下，试用期能请病假吗), unlike 那 / 要是, which go on from the last turn."""
    rewrite = rule_rewrite("另外问一下，试用期能请病假吗？", "年假有几天？")
    assert rewrite.question == "另外问一下，试用期能请病假吗？" and not rewrite.rewritten


def test_a_rewrite_must_still_find_the_question_s_own_words():
    """年假 + 公司几号发工资 found only 年假 clauses: the question was a new one."""
    annual = ["第七条 年假天数 员工累计工作已满1年不满10年的，年休假5天。"]
    payday = ["第四条 发放日期 公司于每月15日发放上月工资。"]
    assert not keeps_own_words("公司几号发工资？", annual)
    assert keeps_own_words("公司几号发工资？", ["第四条 发放日期 每月15日发工资。"])
    assert keeps_own_words("要提前几天申请", ["年假须提前3天申请。"])
    assert keeps_own_words("几天？", payday)  # no content word of its own: nothing to lose
    assert keeps_own_words("能延长吗", annual)  # a verb asks about an aspect of the earlier topic


def test_dependence_names_its_reason():
    assert dependence("那一线城市呢？") == "那…呢"
    assert dependence("这个需要谁审批？") == "指代上文"
    assert dependence("几天？") == "问题太短"
    # 呢 with its own question word asks on its own; being short, it is left to its search (tentative)
    assert dependence("年假有几天呢？") == SHORT and SHORT not in CERTAIN
    assert dependence("试用期员工的工资按转正工资的多少发放？") == ""  # a longer one that names a subject stands
    assert subject_of("差旅费怎么报销？") == "差旅费报销"


# -- the LLM rewrite ----------------------------------------------------------------
TURNS = [("出差住宿标准是多少？", "普通员工出差住宿费上限为每人每晚：一类城市500元 [资料1]")]


def test_llm_rewrite_through_the_openai_compatible_stub():
    with OpenAIStubServer(reply="一线城市出差住宿标准是多少？") as stub:
        client = OpenAICompatibleClient(api_key="k-1234567890", model="stub-model", base_url=stub.base_url)
        result = llm_rewrite(client, "那一线城市呢？", TURNS, "那…呢")
        body = stub.requests[-1].body
    assert result.question == "一线城市出差住宿标准是多少？" and result.rewritten
    assert body["temperature"] == 0
    prompt = body["messages"][-1]["content"]
    assert "示例一" in prompt and "【最后一个问题】那一线城市呢？" in prompt and "出差住宿标准是多少？" in prompt


@pytest.mark.parametrize(
    "reply",
    ["", "根据【资料】，一类城市500元 [资料1]。", "x" * 500, "I cannot help with that", "好的\n这是一个很长的解释" + "。" * 300],
)
def test_bad_llm_output_falls_back_to_the_raw_question(reply: str):
    llm = QueuedLLM(reply)
    result = llm_rewrite(llm, "那一线城市呢？", TURNS, "那…呢")
    assert result.question == "那一线城市呢？" and not result.rewritten


def test_a_failing_llm_costs_nothing_but_the_rewrite():
    class Broken:
        name = "broken"

        def complete(self, prompt: str) -> str:
            raise RuntimeError("down")

    assert llm_rewrite(Broken(), "那一线城市呢？", TURNS, "那…呢").question == "那一线城市呢？"


def test_the_reply_is_bounded_when_the_client_takes_max_tokens():
    seen: dict = {}

    class Bounded:
        name = "bounded"

        def complete(self, prompt: str, max_tokens: int | None = None) -> str:
            seen["max_tokens"] = max_tokens
            return "改写：一线城市出差住宿标准是多少？"

    assert llm_rewrite(Bounded(), "那一线城市呢？", TURNS, "那…呢").question == "一线城市出差住宿标准是多少？"
    assert seen["max_tokens"] == MAX_TOKENS
    assert clean_reply("“一线城市出差住宿标准是多少？”", "那一线城市呢？") == "一线城市出差住宿标准是多少？"
    assert "用户：出差住宿标准是多少？" in build_prompt("那一线城市呢？", TURNS)


# -- statements --------------------------------------------------------------------
def test_statements_are_split_from_questions():
    told = split_turn("我是财务部的张三，我常驻杭州")
    assert told.is_statement_only and "常驻杭州" in told.statement
    both = split_turn("我常驻杭州，出差住宿标准是多少？")
    assert both.statement == "我常驻杭州" and both.question == "出差住宿标准是多少？"
    assert split_turn("我是不是可以请婚假？").statement == ""  # asks, does not tell
    assert split_turn("年假有几天？").question == "年假有几天？"
    assert acknowledgement(["用户常驻杭州"]).startswith("好的，我记住了：您常驻杭州")


# -- the eval file -----------------------------------------------------------------
def test_the_followup_eval_file_has_30_dialogues_with_gold_from_the_samples():
    rows = load_dialogues(DIALOGUES)
    assert len(rows) >= 30
    policies = "\n".join(p.read_text(encoding="utf-8") for p in SAMPLES.glob("*.md"))
    for row in rows:
        assert 2 <= len(row["turns"]) <= 3
        assert all(e in policies for e in row["expected"]), row["id"]
    assert len({json.dumps(r["turns"], ensure_ascii=False) for r in rows}) == len(rows)


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        ("跨省换工作了，之前交的养老保险还算吗", "医保呢", "跨省换工作了，之前交的医保还算吗？"),  # was 养医保险
        ("我一年能休几天年假", "那病假呢", "我一年能休几天病假？"),
        ("一线城市出差住宿标准是多少", "那二线城市呢", "二线城市出差住宿标准是多少？"),
    ],
)
def test_what_stands_in_replaces_whole_words_of_the_previous_question(previous: str, question: str, expected: str):
    assert rule_rewrite(question, previous).question == expected
