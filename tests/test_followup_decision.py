"""A complete question is searched as typed after any turn; a fragment carries the earlier subject.

Through the facade with the real e5 model on the samples: the grammar settles the
clear cases (a pronoun, 那…呢, no content word); a doubtful one is glued to the
previous question only when the glued search reads clearly more answerable and
still finds its own words, and never when it names a noun the policies never use.
The trace says which way it went and why.
"""

from __future__ import annotations

import pytest
from conftest import open_assistant

pytestmark = pytest.mark.integration


@pytest.fixture()
def assistant(store_copy):
    return open_assistant(store_copy)


@pytest.mark.parametrize(
    ("turns", "typed"),
    [
        (["加班餐费怎么报？"], "公司有班车吗？"),
        (["我是财务部的李娜，我常驻杭州", "我出差住宿标准多少？"], "我常驻的城市属于几类城市？"),
        (["公司有班车吗？"], "有班车吗"),
        (["出差住宿标准是多少？"], "试用期可以延长吗？"),
        (["年假有几天？"], "忘记打卡了怎么办？"),
        # no noun, and the glued search reads only a little more answerable (0.98 against 0.96): a near tie
        # keeps what was typed
        (["迟到会扣钱吗？"], "忘记打卡了怎么办"),
        # 发工资 is a phrase, not a noun: the glued search reads more answerable, but finds only 年假 clauses
        (["年假有几天？"], "公司几号发工资？"),
        (["年假有几天？"], "什么时候发工资？"),
        # after a turn that only told something, the question leans on that (memory), not on a question
        (["年假有几天？", "我老婆下个月就要生了"], "我能休几天假陪她"),
    ],
)
def test_a_complete_question_is_searched_as_typed(assistant, turns: list[str], typed: str):
    for turn in turns:
        assistant.ask(turn, user="u1", conversation="c1")
    trace = assistant.ask(typed, user="u1", conversation="c1")
    assert trace.search_question == typed, trace.followup


@pytest.mark.parametrize(
    ("turns", "followup", "carried"),
    [
        (["出差住宿标准是多少？"], "那一线城市呢？", "出差"),
        (["出差打车费能报吗？"], "这个需要谁审批？", "出差"),
        (["忘记打卡了怎么办？"], "一个月能补几次", "打卡"),
        (["试用期多长？"], "能延长吗", "试用期"),
        # opens with 那 and names a subject (工资) with a word the policies never use (照发): glued when the
        # glued search reads clearly more answerable
        (["病假需要提供什么材料？"], "那工资还照发吗", "病假"),
        # words the policies never use, but verbs (折成, 照发), not a topic of their own: glued
        (["年度体检是什么时候？"], "错过了可以折成钱吗", "体检"),
        (["病假要什么证明？"], "工资照发吗", "病假"),
    ],
)
def test_a_follow_up_carries_the_earlier_subject_and_says_why(assistant, turns: list[str], followup: str, carried: str):
    for turn in turns:
        assistant.ask(turn, user="u1", conversation="c1")
    trace = assistant.ask(followup, user="u1", conversation="c1")
    assert carried in trace.search_question and trace.followup, (trace.search_question, trace.followup)
    stored = assistant.get_conversation("c1").turns[-1]
    assert stored.search_question == trace.search_question and stored.trace["followup"] == trace.followup
