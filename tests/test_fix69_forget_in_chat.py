"""Review 372 #1 and #3: telling the chat to forget, or to remember.

忘掉我的城市 / 不要记住我在杭州 / 你记错了，我不在杭州 were searched as policy questions, deleted nothing, and put the
very fact to drop into that answer's prompt. 请记住我对花生过敏 / 帮我记一下我下个月结婚 kept nothing. Now the first
delete the memories they name and say which; the second are told as the fact said plainly.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant_with_samples

from rag_core.conversations.forget_request import FORGOT, asked_to_forget
from rag_core.types import Principal

ME, OTHER = Principal("u1", "employee"), Principal("u2", "employee")


@pytest.fixture
def a(tmp_path):
    return fake_assistant_with_samples(tmp_path / "d")


def _contents(a, user="u1") -> list[str]:
    return [m.content for m in a.list_memories(user)]


@pytest.mark.parametrize("said", ["忘掉我的城市", "不要记住我在杭州", "你记错了，我不在杭州", "把我的城市忘掉吧",
                                  "请忘掉我常驻杭州这件事"])
def test_a_turn_asking_to_forget_deletes_the_fact_and_uses_no_memory(a, said):
    conversation = a.new_conversation_id()
    a.ask("我常驻杭州", user="u1", conversation=conversation)
    a.ask("我在财务部工作", user="u1", conversation=conversation)
    trace = a.ask(said, user="u1", conversation=conversation)
    assert trace.answerer == FORGOT and "用户常驻杭州" in trace.answer
    assert not trace.memories and not trace.search.hits
    assert _contents(a) == ["用户在财务部工作"]
    later = a.ask("我出差住宿标准是多少？", user="u1", conversation=conversation)
    assert all("杭州" not in m.content for m in later.memories)


def test_only_the_askers_own_memories_are_deleted(a):
    a.ask("我常驻杭州", user="u2", actor=OTHER)
    a.ask("我常驻杭州", user="u1", actor=ME)
    a.ask("忘掉我的城市", user="u1", actor=ME)
    assert _contents(a, "u1") == [] and _contents(a, "u2") == ["用户常驻杭州"]


def test_words_naming_every_memory_delete_none_and_point_to_the_page(a):
    a.ask("我常驻杭州", user="u1")
    trace = a.ask("删除所有记忆", user="u1")
    assert "记忆管理" in trace.answer and _contents(a) == ["用户常驻杭州"]


def test_nothing_named_is_said(a):
    a.ask("我常驻杭州", user="u1")
    trace = a.ask("忘掉我的生日", user="u1")
    assert "没有找到" in trace.answer and _contents(a) == ["用户常驻杭州"]


def test_a_turn_not_remembered_deletes_nothing_and_says_so(a):
    a.ask("我常驻杭州", user="u1")
    trace = a.ask("忘掉我的城市", user="u1", remember=False)
    assert _contents(a) == ["用户常驻杭州"] and "不改动记忆" in trace.answer and "没有找到" not in trace.answer


def test_only_the_persons_own_fact_goes_not_another_persons_nor_a_question(a):
    """Review 374 #4, #5: 忘掉我在杭州 deleted 用户父母住在杭州 and a 问答记录; 忘掉我是主管 deleted the boss."""
    for said in ("我常驻杭州", "我父母住在杭州", "我是主管", "我的领导是王五", "我在财务部工作"):
        a.ask(said, user="u1")
    a.memory.add("u1", "用户问过：杭州出差住宿标准多少？", kind="interaction", importance=0.3)
    a.ask("忘掉我在杭州", user="u1")
    a.ask("忘掉我是主管", user="u1")
    kept = _contents(a)
    assert "用户常驻杭州" not in kept and "用户父母住在杭州" in kept and any("问过" in c for c in kept)
    assert any("王五" in c for c in kept) and not any(c.endswith("是主管") for c in kept)
    a.ask("忘掉我的部门领导", user="u1")  # the head noun: the manager, not the department
    assert not any("王五" in c for c in _contents(a)) and "用户在财务部工作" in _contents(a)


@pytest.mark.parametrize("said", ["你记错了，我不是经理", "别记我是经理啦", "请忘记我是经理。谢谢！", "忘掉我的职位"])
def test_everyday_wordings_find_the_fact(a, said):
    a.ask("我是经理", user="u1")
    a.ask(said, user="u1")
    assert _contents(a) == []


def test_a_correction_with_the_right_fact_replaces_the_wrong_one(a):
    """Review 374 #7: 你记错了，我不在财务部，我在人事部工作 kept the wrong department and dropped the right one."""
    a.ask("我在财务部工作", user="u1")
    trace = a.ask("你记错了，我不在财务部，我在人事部工作", user="u1")
    assert trace.answerer != FORGOT and any("人事部" in c for c in _contents(a))
    assert not any("财务部" in c for c in _contents(a))


@pytest.mark.parametrize("question", ["忘记打卡怎么办？", "忘记打卡怎么办", "忘了带工牌怎么办", "我忘了打卡",
                                      "删除我的考勤记录需要什么手续", "删除我的考勤记录", "我忘记请假了",
                                      # review 374 #1 (read, so regression cases now, not a measure)
                                      "忘了我的OA密码", "忘了刚才说的，我想问病假工资", "不用记住我，告诉我离职流程",
                                      "请帮我删除关于我的迟到记录", "帮我把我的加班申请删掉", "你搞错了，我不是问产假，是陪产假",
                                      "你记错了，我不是要请病假，是事假", "忘记我的工号了", "别记我的请假了，说说事假扣钱规则"])
def test_policy_questions_about_forgetting_are_no_request_to_forget(question):
    assert asked_to_forget(question) is None


@pytest.mark.parametrize(("said", "kept"), [("请记住我对花生过敏", "花生"), ("记住：我有两个孩子", "两个孩子"),
                                            ("帮我记一下我下个月结婚", "结婚")])
def test_a_request_to_remember_is_told_as_the_fact(a, said, kept):
    trace = a.ask(said, user="u1")
    assert not trace.search.hits
    assert any(kept in content for content in _contents(a)), _contents(a)


@pytest.mark.parametrize("question", ["请记住我们公司的报销流程", "帮我记一下我们部门的考勤规定", "记住我们公司年假是5天"])
def test_a_keep_opener_before_we_is_a_policy_question(a, question):
    """Review 374 #2: 请记住我们… was saved as a junk memory instead of being searched."""
    trace = a.ask(question, user="u1")
    assert trace.search.query and _contents(a) == []

