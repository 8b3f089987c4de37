"""Review 52n2 #3: an everyday move to a city jieba does not tag as a place (合肥, 石家庄, 义乌), or to a city that
begins like a pointing word (贵阳, 本溪), or to a branch there (北京分公司), replaces the old city."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.memory.text import slots
from rag_core.text.places import CITIES, is_city

UNTAGGED = ["合肥", "石家庄", "大连", "海口", "银川", "拉萨", "义乌", "金华", "嘉兴", "南通", "烟台", "唐山", "保定",
            "岳阳", "桂林", "遵义"]


@pytest.mark.parametrize("city", UNTAGGED)
def test_an_everyday_move_to_a_city_names_it(city):
    assert slots(f"用户现在在{city}上班") == {"city": city}


@pytest.mark.parametrize(("said", "city"), [("用户常驻贵阳", "贵阳"), ("用户常驻本溪", "本溪"),
                                            ("用户现在在北京分公司上班", "北京"), ("用户在上海办事处工作", "上海")])
def test_a_city_is_read_whole_and_at_a_branch(said, city):
    assert slots(said) == {"city": city}


@pytest.mark.parametrize("said", ["用户在贵司上班", "用户常驻本市", "用户在本公司上班", "用户调到本部门", "用户在公司上班",
                                  "用户在阿里上班"])
def test_pointing_words_and_employers_are_no_city(said):
    assert slots(said) == {}


def test_the_gazetteer_holds_every_prefecture_level_name():
    assert len(CITIES) > 450 and is_city("乌鲁木齐") and is_city("合肥市") and not is_city("公司")


@pytest.mark.parametrize("moved", ["我现在在合肥上班", "我现在在石家庄上班", "我现在在北京分公司上班", "我常驻贵阳"])
def test_a_new_city_replaces_the_old(tmp_path, moved):
    a = fake_assistant(tmp_path / "store")
    a.ask("我常驻杭州", user="n2a", conversation="c")
    a.ask(moved, user="n2a", conversation="c")
    kept = [m.content for m in a.list_memories("n2a")]
    assert not any("杭州" in c for c in kept), kept
