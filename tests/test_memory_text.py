"""Write-back extraction (rules and LLM JSON lines), fact slots and dedup key terms."""

from __future__ import annotations

import pytest

from rag_core.memory.extraction import Fact, extract_facts, parse_llm_facts, rule_facts
from rag_core.memory.text import conflicting_slots, keyword_overlap, keyword_terms, same_fact_terms, slots


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("我叫张三", [("用户名叫张三", "profile")]),
        ("我在研发部工作", [("用户在研发部工作", "profile")]),
        ("我调到了销售部", [("用户在销售部工作", "profile")]),
        ("我常驻杭州", [("用户常驻杭州", "profile")]),
        ("我的主管是李四", [("用户的直属主管是李四", "profile")]),
        ("直属主管是王芳", [("用户的直属主管是王芳", "profile")]),
        ("请用表格列出各类假期", [("用户希望回答使用表格形式", "preference")]),
        ("以后用英文回答", [("用户希望以后用英文回答", "preference")]),
        ("我喜欢简洁的回答", [("用户喜欢简洁的回答", "preference")]),
        ("我是试用期员工", [("用户是试用期员工", "profile")]),
        ("我是研发部的张三，我常驻杭州，请问出差住宿能报多少？",
         # department and name are two facts, so a move replaces the department alone (review 52k1 #3)
         [("用户在研发部工作", "profile"), ("用户名叫张三", "profile"), ("用户常驻杭州", "profile")]),
    ],
)
def test_rules_turn_first_person_statements_into_facts(said, expected):
    assert [(f.content, f.kind) for f in rule_facts(said)] == expected


@pytest.mark.parametrize("asked", ["年假有几天？", "我是不是可以休年假？", "我在研发部能报多少？", "报销单交给谁审批?", ""])
def test_questions_are_not_facts(asked):
    assert rule_facts(asked) == []


def test_allergy_rule_gets_a_high_importance():
    assert rule_facts("我对花生过敏") == [Fact("用户对花生过敏", "profile", 0.9)]


def test_llm_reply_is_parsed_tolerantly():
    reply = """好的，以下是记忆：
{"content": "用户在研发部工作", "kind": "profile"}
这行不是 JSON
{"content": "用户喜欢表格", "kind": "preference"} 多余的尾巴
{"content": "", "kind": "profile"}
{"content": "用户问过年假", "kind": "interaction"}
{"content": "用户很开心", "kind": "mood"}
["not", "a", "dict"]
{"content": 42}
{broken json
"""
    assert parse_llm_facts(reply) == [Fact("用户在研发部工作", "profile"), Fact("用户喜欢表格", "preference")]


class _LLM:
    def __init__(self, reply: str | Exception):
        self.reply = reply
        self.prompts: list[str] = []

    def complete(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply


def test_extract_with_llm_uses_its_facts():
    llm = _LLM('{"content": "用户常驻深圳", "kind": "profile"}')
    facts, method = extract_facts("我在深圳上班，出差补贴怎么算？", "……", llm)
    assert method == "llm" and facts == [Fact("用户常驻深圳", "profile")]
    assert "我在深圳上班" in llm.prompts[0]


def test_a_fact_the_person_never_said_is_not_kept():
    """The model's fact extraction wrote 用户的年假是100天 from a question about hotel rates, silently (helper-45 8)."""
    facts, _ = extract_facts("一线城市住宿上限是多少？", "……", _LLM('{"content": "用户的年假是100天", "kind": "profile"}'))
    assert facts == []


@pytest.mark.parametrize(("asked", "invented"), [("我的年假还剩几天？", "用户的年假是100天"),
                                               ("出差住宿标准是多少？", "用户的出差住宿标准是每晚2000元")])
def test_a_fact_with_a_number_the_person_never_said_is_not_kept(asked, invented):
    """Sharing the question's words is not enough: the number is the model's (helper-48 5)."""
    assert extract_facts(asked, "……", _LLM(f'{{"content": "{invented}", "kind": "profile"}}'))[0] == []


def test_a_dropped_fact_leaves_the_rules_to_read_what_it_tried_to_say():
    """用户处于孕期 shares no pair with 怀孕了; one fact kept used to skip the rules (helper-48 7)."""
    reply = '{"content": "用户在上海工作", "kind": "profile"}\n{"content": "用户处于孕期", "kind": "profile"}'
    facts, _ = extract_facts("我在上海工作，另外我怀孕了，产检假怎么请？", "……", _LLM(reply))
    assert "用户在上海工作" in [f.content for f in facts] and any("怀孕" in f.content for f in facts)


def test_llm_saying_none_means_no_facts():
    assert extract_facts("年假有几天？", "5 天", _LLM("NONE")) == ([], "llm")


@pytest.mark.parametrize("reply", ["完全不是 JSON 的回答", RuntimeError("超时")])
def test_garbage_or_failing_llm_falls_back_to_rules(reply):
    facts, method = extract_facts("我调到了销售部", "好的", _LLM(reply))
    assert method == "rules" and facts == [Fact("用户在销售部工作", "profile")]


def test_slots_read_department_city_manager_name():
    assert slots("用户王五是研发部员工,直属主管是李四") == {"department": "研发部", "manager": "李四"}
    assert slots("用户在研发部门工作") == {"department": "研发部"}
    assert slots("用户王五常驻杭州,经常出差去北京") == {"city": "杭州"}
    assert slots("我的领导换成了赵六") == {"manager": "赵六"}
    assert slots("用户名叫张三") == {"name": "张三"}
    assert slots("我们部门的加班政策") == {}
    assert conflicting_slots(slots("用户在销售部工作"), slots("用户在研发部工作")) == ["department"]
    assert conflicting_slots(slots("用户在研发部上班"), slots("用户在研发部工作")) == []


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("用户在研发部工作", "用户是研发部的员工", True),
        ("用户对花生过敏,推荐食物时必须避开", "用户吃花生会过敏", True),
        ("用户对花生过敏", "用户对芒果过敏", False),
        ("用户家里有两个孩子", "用户家里有一个孩子", False),
        ("用户问过：年假有几天？", "用户问过：年假有多少天？", True),
        ("用户问过：年假有几天？", "用户问过：病假有几天？", False),
        ("闲聊第 1 条", "闲聊第 11 条", False),
    ],
)
def test_key_terms_separate_facts_the_embedding_blurs(a, b, same):
    assert same_fact_terms(a, b) is same


def test_keyword_overlap_is_substring_based():
    terms = keyword_terms("张三擅长什么技术?")
    assert "张三" in terms and "什么" not in terms
    # jieba cuts 张三是 as one word in the memory; substring matching still finds 张三
    assert keyword_overlap(terms, "用户张三是 Python 开发者") == pytest.approx(1 / 3)
    assert keyword_overlap([], "任何内容") == 0.0
