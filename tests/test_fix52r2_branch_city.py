"""Review 52r2 #1: the name before 分公司/办事处 is a city only when the gazetteer knows it. Branches are named by
regions, ordinals and functions as often as by cities (华东分公司, 第二分公司, 海外办事处, 销售办事处), and such a
branch must not replace the city the person said they are based in."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.memory.text import slots


@pytest.mark.parametrize("said", ["用户在华东分公司上班", "用户在第二分公司上班", "用户在海外办事处上班",
                                  "用户在新区分公司工作", "用户在合资分公司上班", "用户在销售办事处上班",
                                  "用户调到华东分公司了", "用户外派到海外办事处"])
def test_a_branch_named_by_no_city_sets_no_city(said):
    assert "city" not in slots(said)


@pytest.mark.parametrize(("said", "city"), [("用户在北京分公司上班", "北京"), ("用户在合肥分公司上班", "合肥"),
                                            ("用户在苏州办事处工作", "苏州"), ("用户调到上海分公司了", "上海"),
                                            ("用户在杭州市分公司上班", "杭州")])
def test_a_branch_in_a_city_still_names_it(said, city):
    assert slots(said)["city"] == city


def test_a_regional_branch_keeps_the_city_memory(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ask("我常驻杭州", user="wang", conversation="c1")
    a.ask("我在华东分公司上班", user="wang", conversation="c2")
    kept = [m.content for m in a.list_memories("wang")]
    assert any("杭州" in c for c in kept), kept
