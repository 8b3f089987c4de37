"""Review 61 (rev-memui D1): a colleague's private fact typed on the memories page was kept as the person's own.

`remember("zhang", "我同事张三得了癌症")` was added (chat write-back refuses the very sentence as someone else's), and
recall then lifted it into the prompt of the person's own questions (我的年假有几天): the outsider rule only read the
用户… form chat stores, never the 我… form a person types. Now the person's actions refuse it as chat does, and
recall reads a stored 我… text in the third person, so rows kept before stop reaching first-person questions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fakes import BigramEmbedder, fake_assistant

from rag_core import MemoryStoreError, Principal
from rag_core.memory import MemoryStore

E = Principal("zhang", "employee")
NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)


@pytest.fixture()
def assistant(tmp_path):
    return fake_assistant(tmp_path / "store")


@pytest.mark.parametrize("typed", ["我同事张三得了癌症", "我同事张三得了癌症，最近在住院", "用户同事张三得了癌症",
                                   "我领导李四在闹离婚", "同事张三得了癌症", "我同\u200b事张三得了癌症"])
def test_a_colleagues_private_fact_is_not_saved_as_the_persons_memory(assistant, typed):
    with pytest.raises(MemoryStoreError, match="这是关于别人的信息，不能保存为您的记忆"):
        assistant.remember("zhang", typed, actor=E)
    assert assistant.list_memories("zhang", actor=E) == []


def test_the_refusal_names_the_clause_and_what_could_be_kept(assistant):
    with pytest.raises(MemoryStoreError) as refused:
        assistant.remember("zhang", "我在研发部，同事张三得了癌症，最近在住院", actor=E)
    said = str(refused.value)
    assert "“同事张三得了癌症”" in said and said.endswith("请只写：我在研发部"), said


def test_an_edit_cannot_turn_a_memory_into_a_colleagues_fact(assistant):
    mid, _ = assistant.remember("zhang", "我常驻杭州", actor=E)
    with pytest.raises(MemoryStoreError, match="关于别人的信息"):
        assistant.update_memory_text(mid, "我同事张三得了癌症", actor=E)
    assert [m.content for m in assistant.list_memories("zhang", actor=E)] == ["我常驻杭州"]


@pytest.mark.parametrize("typed", ["我老婆怀孕了", "我领导派我下周去上海出差一个月", "我领导是李四", "我在研发部工作",
                                   "我同事和我都在研发部", "我常驻杭州", "别人的记忆"])
def test_the_persons_own_facts_and_familys_are_still_kept(assistant, typed):
    _, action = assistant.remember("zhang", typed, actor=E)
    assert action == "added"


def test_a_typed_first_person_fact_reads_as_chat_would_store_it():
    from rag_core.memory.text import about_an_outsider, as_the_person

    assert as_the_person("我同事张三得了癌症") == "用户同事张三得了癌症"
    assert as_the_person("用户同事张三得了癌症") == "用户同事张三得了癌症"
    assert about_an_outsider(as_the_person("我同事张三得了癌症")) and not about_an_outsider(as_the_person("我老婆怀孕了"))


def test_a_kept_first_person_fact_about_a_colleague_is_not_lifted_into_my_questions(tmp_path):
    """Rows kept before the page refused them (as typed, 我…): recall does not lift them for every 我… question."""
    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    store.add("u", "我同事张三得了癌症", kind="profile", importance=0.8, now=NOW)
    store.add("u", "我常驻杭州", kind="profile", importance=0.8, now=NOW)
    for question in ("我的年假有几天？", "我请病假要什么材料"):
        found = [h.content for h in store.search("u", question, now=NOW + timedelta(hours=1))]
        assert "我常驻杭州" in found and "我同事张三得了癌症" not in found, (question, found)


# ---- review rev-own2 (D1, D2, D3, D5) -------------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["我的经理是王五", "我经理是王五", "我在研发部，经理是王五", "我的室友是张三",
                                   "我的同事张三，也是我的导师", "我们部门在三楼", "我对方案不满意", "我常驻杭州，张罗婚礼"])
def test_a_relation_named_and_the_persons_own_facts_are_kept(assistant, typed):
    """D1: 经理 was an outsider's word but no manager slot, so 我的经理是王五 was refused while 我的主管是王五 was kept.
    Who a relation of the person is (用户的<relation>是<name>) is the person's fact, whatever the relation's word."""
    _, action = assistant.remember("zhang", typed, actor=E)
    assert action == "added"


def test_the_persons_manager_told_in_chat_is_kept_and_recalled(tmp_path):
    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    assert [action for _, action in store.write_back("u", "我的经理是王五，请假要他批吗", "", now=NOW)] == ["added"]
    store.add("v", "用户的经理是王五", now=NOW)  # a row kept before: recalled for the person's own questions again
    assert [h.content for h in store.search("v", "我请年假需要谁审批", now=NOW + timedelta(hours=1))] == ["用户的经理是王五"]


@pytest.mark.parametrize("typed", ["我们部门的小张怀孕了", "我们组的王五得了癌症", "某同事得了癌症", "TA得了抑郁症", "王五住院了",
                                   "隔壁工位的王五得了肺癌", "对方得了癌症", "那个客户住院了"])
def test_someone_elses_health_is_refused_whoever_they_are(assistant, typed):
    """D2: only a relation word at the very start of the subject made a clause someone else's: a unit's or a place's
    someone, 某/那个…, 对方, TA or a bare name were kept as the person's own and recalled into their questions."""
    with pytest.raises(MemoryStoreError, match="这是关于别人的信息"):
        assistant.remember("zhang", typed, actor=E)


def test_chat_keeps_no_colleagues_health_and_no_user_plural(tmp_path):
    from rag_core.text.asking import third_person

    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    assert store.write_back("u", "我们部门的小张怀孕了，我们组的王五得了癌症", "", now=NOW) == []
    assert store.list("u") == []
    assert third_person("我们部门的小张怀孕了，我们组的王五得了癌症") == "用户所在的部门的小张怀孕了，用户所在的组的王五得了癌症"


@pytest.mark.parametrize(("typed", "kept"), [("客户在上海，所以我常出差", "我常出差"),
                                             ("同事请假了，所以我这周加班", "我这周加班")])
def test_the_persons_clause_after_a_connective_is_not_refused_with_the_other(assistant, typed, kept):
    """D3: only a clause opening with 我 went back to the person; 所以我… was refused with the colleague's clause."""
    with pytest.raises(MemoryStoreError) as refused:
        assistant.remember("zhang", typed, actor=E)
    assert str(refused.value).endswith(f"请只写：{kept}"), str(refused.value)


def test_a_long_text_keeps_the_persons_last_clause_in_the_suggestion(assistant):
    text = "我在研发部工作，常驻杭州，我同事张三得了癌症，最近在住院，所以我要多值班"
    with pytest.raises(MemoryStoreError) as refused:
        assistant.remember("zhang", text, actor=E)
    assert str(refused.value).endswith("请只写：我在研发部工作，常驻杭州，我要多值班"), str(refused.value)


def test_the_refusal_quotes_the_persons_data_masked(assistant):
    """D5: the outsider check ran on the text as typed and the message quoted it: the page showed the phone and ID."""
    with pytest.raises(MemoryStoreError) as refused:
        assistant.remember("zhang", "我的手机号是13800138000，身份证110101199003074514，我同事张三得了癌症", actor=E)
    said = str(refused.value)
    assert "13800138000" not in said and "110101199003074514" not in said and "[手机号]" in said, said


def test_a_memory_that_names_its_own_person_is_kept(assistant):
    """A name opening a memory is someone else's only when it is not the person's own (王五下个月结婚, for 王五)."""
    for text in ("王五在北京办公室", "王五下个月结婚"):
        assistant.remember("王五", text)
    with pytest.raises(MemoryStoreError, match="这是关于别人的信息"):
        assistant.remember("李四", "王五下个月住院")


# ---- review rev-own4 (D1-D4): the person's own facts were refused as someone else's ---------------------------------

@pytest.mark.parametrize("typed", ["黄金周我要休年假", "白班我上到六点", "余杭区我常驻", "高新区我常驻", "朱家角我有房子",
                                   "马拉松我跑过", "黄金周要休年假", "龙岗我常驻", "白云区我常驻", "金秋我要休年假",
                                   "丁克，没有孩子", "夏令营孩子要去"])
def test_a_fact_opening_with_a_word_jieba_tags_as_a_name_is_kept(assistant, typed):
    """D1: a common word jieba's dictionary tags nr (黄金周, 白班, 马拉松), or a place jieba reads with its ending
    (余杭区), was taken for someone's name, and 我 after it was cut off: the person's own fact was refused."""
    _, action = assistant.remember("zhang", typed, actor=E)
    assert action == "added"


@pytest.mark.parametrize("said", ["我们组的白班从八点开始", "我们公司的黄金周放七天", "我们公司的石家庄分公司在扩招",
                                  "我们公司的高新区园区在扩建", "我们部门的经理姓王"])
def test_a_fact_of_the_persons_unit_is_kept_on_the_page_and_in_chat(assistant, said):
    """D2: whatever followed <unit>的 was read as a colleague of that unit."""
    _, action = assistant.remember("zhang", said, actor=E)
    assert action == "added"
    assistant.ask(said, user="li", conversation="c1")
    assert [m.content for m in assistant.list_memories("li")], said


def test_a_stored_fact_of_the_persons_unit_is_recalled(tmp_path):
    """D3: recall read 用户所在的公司的黄金周 as a colleague's fact and never lifted it."""
    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    kept = ["用户所在的公司的黄金周放七天", "用户所在的组的白班从八点开始", "用户常驻杭州"]
    for content in kept:
        store.add("u", content, kind="profile", importance=0.8, now=NOW)
    found = {h.content for h in store.search("u", "我的年假怎么休？", now=NOW + timedelta(hours=1))}
    assert set(kept) <= found, found
    store.add("v", "用户所在的部门的经理姓王", now=NOW)
    found = [h.content for h in store.search("v", "我请年假需要谁审批", now=NOW + timedelta(hours=1))]
    assert found == ["用户所在的部门的经理姓王"], found


@pytest.mark.parametrize("said", ["我叫他小王", "我叫TA小王", "我叫TA", "我叫她老李"])
def test_what_the_person_calls_someone_is_not_their_name(tmp_path, said):
    """D4: 我叫他小王 replaced the person's name with 他小王."""
    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    store.write_back("u", "我叫李娜", "", now=NOW)
    store.write_back("u", said, "", now=NOW + timedelta(minutes=1))
    contents = [m.content for m in store.list("u")]
    assert "用户名叫李娜" in contents and not any("名叫他" in c or "名叫TA" in c or "名叫她" in c for c in contents), contents


def test_a_name_the_person_gives_is_still_kept(tmp_path):
    from rag_core.memory.text import slots

    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    store.write_back("u", "我叫李娜", "", now=NOW)
    assert [m.content for m in store.list("u")] == ["用户名叫李娜"]
    assert slots("用户名叫他小王") == {} and slots("用户名叫李娜") == {"name": "李娜"}


@pytest.mark.parametrize("typed", ["李四住院了", "张三得了癌症", "隔壁工位的王五得了肺癌", "我们部门的经理得了癌症"])
def test_a_named_or_unit_persons_health_is_still_refused(assistant, typed):
    with pytest.raises(MemoryStoreError, match=OUTSIDER_SAID):
        assistant.remember("zhang", typed, actor=E)


OUTSIDER_SAID = "这是关于别人的信息"
