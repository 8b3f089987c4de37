"""Allowance words match by their stem: 餐费 / 餐补 / 餐贴 / 误餐补助 name one thing, while a different
situation (出差 against 加班) still does not.

The unit tests pin the stem rule; the integration test is the user's story on the
samples with the real model: 加班餐费怎么报 is refused (the samples only have the
出差 meal allowance), and answered from a 加班餐补 policy uploaded a minute later,
which never says 餐费.
"""

from __future__ import annotations

import pytest

from rag_core.search.answerability import missing_terms
from rag_core.text.vocabulary import allowance_stem, names, names_allowance

MEAL_POLICY = """# 加班餐补管理办法

### 第一条 适用范围

本办法适用于因工作需要在工作日晚上或休息日加班的员工。

### 第三条 餐补标准

| 城市类别 | 每次餐补 |
| --- | --- |
| 一类城市 | 50元 |
| 二类城市 | 35元 |
| 三类城市 | 25元 |

### 第四条 报销方式

加班餐补凭OA系统已审批的加班单，随当月工资发放，无需提供发票。
"""


@pytest.mark.parametrize(
    ("term", "stem"),
    [("餐费", "餐"), ("住房补贴", "住房"), ("打车费", "打车"), ("误餐补助", "误餐"), ("费用", ""), ("年假", "")],
)
def test_the_stem_of_an_allowance_word(term: str, stem: str) -> None:
    assert allowance_stem(term) == stem


@pytest.mark.parametrize(
    ("term", "text", "named"),
    [
        ("餐费", "加班餐补按次发放", True),
        ("餐费", "每人每次发放晚餐补助25元", True),
        ("餐贴", "伙食补贴另计；餐补每次30元", True),
        ("房补", "符合条件的员工每月发放住房补贴", True),
        ("打车费", "停车费不予报销", False),
        ("话费", "通讯补贴每月200元", False),  # another stem: the thesaurus's job, not the stem's
        ("高温补贴", "住房补贴每月800元", False),
    ],
)
def test_an_allowance_is_named_by_its_stem_with_any_ending(term: str, text: str, named: bool) -> None:
    assert names_allowance(term, text) is named
    assert names(term, text, {}) is named


def test_a_different_situation_still_counts_as_missing() -> None:
    """加班餐费 against the 出差 meal allowance: 餐费 is named, 加班 is not, so the clause stays vetoed."""
    clause = "员工出差期间的餐费实行定额补贴，一类城市每天100元"
    _, scope_missing = missing_terms(["加班", "餐费"], clause, {}, {"加班": 3, "餐费": 1})
    assert scope_missing == ["加班"]
    _, scope_missing = missing_terms(["加班", "餐费"], "加班餐补每次50元", {}, {"加班": 3, "餐费": 1})
    assert scope_missing == []


@pytest.mark.integration
def test_a_policy_uploaded_a_minute_ago_answers_the_obvious_question(store_copy) -> None:
    from conftest import open_assistant

    assistant = open_assistant(store_copy)
    before = assistant.ask("加班餐费怎么报？", user="")
    assert before.outcome == "refused", before.answer
    assert assistant.ingest_bytes(MEAL_POLICY.encode(), "加班餐补管理办法.md").ok
    after = assistant.ask("加班餐费怎么报？", user="")
    assert after.outcome in ("answered", "weak"), after.answer
    assert any("餐补" in s.text for s in after.sources), [s.text for s in after.sources]
