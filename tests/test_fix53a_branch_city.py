"""Review 53 #2: a branch in a city the mainland gazetteer does not list (新加坡, 东京, 纽约) or named with its
district (上海浦东) names that city again, so moving there replaces the old city; a branch named by a region, an
ordinal, a function, a province, a country or a district still names none (review 52r2 #1)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.memory.text import slots


@pytest.mark.parametrize(("said", "city"), [
    ("用户调到新加坡分公司了", "新加坡"), ("用户在东京分公司上班", "东京"), ("用户在纽约办事处工作", "纽约"),
    ("用户在伦敦办事处", "伦敦"), ("用户在上海浦东分公司上班", "上海"), ("用户在北京朝阳分公司上班", "北京"),
    ("用户调到深圳南山分公司", "深圳"),
])
def test_a_branch_abroad_or_with_its_district_names_the_city(said, city):
    assert slots(said).get("city") == city


@pytest.mark.parametrize("said", ["用户在美国分公司上班", "用户在江苏分公司上班", "用户在浦东分公司上班",
                                  "用户在华南区分公司上班", "用户调到东南亚分公司", "用户在欧洲办事处",
                                  "用户在总分公司上班", "用户在浦东新区分公司"])
def test_a_branch_named_by_a_region_province_country_or_district_names_no_city(said):
    assert "city" not in slots(said)


def test_moving_to_a_branch_abroad_replaces_the_old_city(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ask("我常驻杭州", user="wang", conversation="c1")
    a.ask("我调到新加坡分公司了", user="wang", conversation="c2")
    kept = [m.content for m in a.list_memories("wang")]
    assert any("新加坡" in c for c in kept) and not any("杭州" in c for c in kept), kept
