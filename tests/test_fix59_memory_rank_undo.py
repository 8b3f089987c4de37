"""Review 59 (memory): forgetting ranks as the list does; undo takes back the undone turn's own telling, in any
order; a naive import time is read on the office clock.

- keep-N forgetting scored every row as decaying, while recall and the memories page keep a profile fact fresh
  (`freshness_by_kind`): it dropped the allergy and the home city the page shows first.
- undoing 我调到了市场部 (which replaced 研发部 and was itself replaced by 销售部) left 研发部 pointing at the undone
  row, so undoing 销售部 afterwards brought nothing back; the other order gave 研发部.
- undoing the turn that first told 我老婆怀孕了 took back the latest telling (7个月, a later turn's) instead.
- `created_at` 2026-12-06T19:00 typed at 19:00 Shanghai time was read as UTC, eight hours ahead: refused as future.
"""

from __future__ import annotations

import pickle
from datetime import UTC, datetime, timedelta

import pytest
from fakes import BigramEmbedder, NearEmbedder, fake_assistant

from rag_core.memory import MemoryStore
from rag_core.text.inputs import InputError

NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "m.sqlite3", NearEmbedder())
    yield s
    s.close()


# 1: forgetting keeps what the list ranks first ------------------------------------------------------------------
def test_forget_keeps_the_rows_the_list_ranks_first(tmp_path):
    s = MemoryStore(tmp_path / "m.sqlite3", BigramEmbedder())
    s.add("u", "用户对花生过敏", kind="profile", importance=0.9, created_at=NOW - timedelta(days=180), now=NOW)
    s.add("u", "用户常驻杭州", kind="profile", created_at=NOW - timedelta(days=120), now=NOW)
    s.add("u", "用户上周去北京出差了", kind="episode", created_at=NOW - timedelta(days=2), now=NOW)
    s.add("u", "用户喜欢简短的回答", kind="preference", created_at=NOW - timedelta(days=1), now=NOW)
    listed = [h.content for h in s.list("u", now=NOW)]
    assert listed[:2] == ["用户对花生过敏", "用户常驻杭州"]
    previewed = s.preview_forget(2, user_id="u", now=NOW)
    assert [h.content for h in previewed] == listed[:1:-1]  # the list's last, lowest first
    assert all(h.freshness < 1.0 for h in previewed)
    assert s.forget(2, user_id="u", now=NOW) == 2
    assert [h.content for h in s.list("u", now=NOW)] == listed[:2]
    s.close()


def test_forget_listed_agrees_with_the_preview_for_profile_facts(tmp_path):
    s = MemoryStore(tmp_path / "m.sqlite3", BigramEmbedder())
    s.add("u", "用户常驻杭州", kind="profile", created_at=NOW - timedelta(days=400), now=NOW)
    s.add("u", "用户上周去北京出差了", kind="episode", created_at=NOW - timedelta(days=1), now=NOW)
    shown = s.preview_forget(1, user_id="u", now=NOW)
    assert [h.content for h in shown] == ["用户上周去北京出差了"]
    assert s.forget_listed(shown, 1, user_id="u", now=NOW) == (1, 0, False)
    assert [h.content for h in s.list("u", now=NOW)] == ["用户常驻杭州"]
    s.close()


# 7A: undoing two later corrections in either order -------------------------------------------------------------
@pytest.mark.parametrize("order", [("c2", "c3"), ("c3", "c2")])
def test_undoing_both_corrections_in_either_order_brings_back_the_first_fact(tmp_path, order):
    a = fake_assistant(tmp_path / "s")
    a.ask("我在研发部", conversation="c1")
    turns = {"c2": a.ask("我调到了市场部", conversation="c2").turn, "c3": a.ask("我调到了销售部", conversation="c3").turn}
    for conversation in order:
        a.undo_acknowledged(conversation, turns[conversation])
    assert [m.content for m in a.list_memories("local")] == ["用户在研发部工作"]


def test_a_taken_back_middle_fact_hands_what_it_replaced_to_its_successor(store):
    first, _ = store.add("u", "用户在研发部工作", now=NOW - timedelta(days=3))
    middle, _ = store.add("u", "用户在市场部工作", now=NOW - timedelta(days=2))
    last, _ = store.add("u", "用户在销售部工作", now=NOW - timedelta(days=1))
    store.undo([middle], user_id="u", now=NOW)
    assert store.get(first).replaced_by == last
    store.undo([last], user_id="u", now=NOW)
    assert [m.content for m in store.list("u", now=NOW)] == ["用户在研发部工作"]


# 7B: the undone turn's own telling ------------------------------------------------------------------------------
def test_add_names_the_telling_it_wrote(store):
    added = store.add("u", "用户怀孕了", now=NOW - timedelta(days=3))
    again = store.add("u", "用户怀孕7个月了", now=NOW)
    assert (added[1], again[1], again[0]) == ("added", "strengthened", added[0])
    assert isinstance(added.telling, int) and again.telling > added.telling
    assert pickle.loads(pickle.dumps(again)).telling == again.telling
    mid, action = again  # still a pair
    assert (mid, action) == (added[0], "strengthened")


def test_undoing_the_first_telling_keeps_the_detail_a_later_turn_added(store):
    first = store.add("u", "用户怀孕了", now=NOW - timedelta(days=3))
    later = store.add("u", "用户怀孕7个月了", now=NOW)
    before = store.get(first[0])
    assert store.undo([(first[0], first.telling)], user_id="u", now=NOW) == 1
    row = store.get(first[0])
    assert (row.content, row.deleted, row.created_at) == ("用户怀孕7个月了", False, before.created_at)
    assert row.importance == pytest.approx(before.importance - 0.05)  # one telling's weight, not two
    assert store.history("u", first[0])[-1]["action"] == "untold"
    # undoing the later turn now takes back the last telling left: the row goes
    assert store.undo([(later[0], later.telling)], user_id="u", now=NOW) == 1
    assert store.get(first[0]).deleted


def test_the_two_undos_in_the_other_order_end_the_same(store):
    first = store.add("u", "用户怀孕了", now=NOW - timedelta(days=3))
    later = store.add("u", "用户怀孕7个月了", now=NOW)
    store.undo([(later[0], later.telling)], user_id="u", now=NOW)
    assert store.get(first[0]).content == "用户怀孕了"  # the later turn's detail taken back, as before
    store.undo([(first[0], first.telling)], user_id="u", now=NOW)
    assert store.get(first[0]).deleted


def test_a_middle_rewording_taken_back_gives_back_the_wording_before_it(store):
    first = store.add("u", "用户怀孕了", now=NOW - timedelta(days=3))
    middle = store.add("u", "用户怀孕7个月了", now=NOW - timedelta(days=2))
    last = store.add("u", "用户怀孕了", now=NOW - timedelta(days=1))
    assert store.get(first[0]).content == "用户怀孕7个月了"  # the last telling said less: the wording stays
    store.undo([(middle[0], middle.telling)], user_id="u", now=NOW)
    row = store.get(first[0])
    assert (row.content, row.deleted, row.created_at) == ("用户怀孕了", False, (NOW - timedelta(days=1)).isoformat())
    assert last[0] == first[0]


def test_a_bare_id_still_takes_back_the_latest_telling(store):
    first = store.add("u", "用户怀孕了", now=NOW - timedelta(days=3))
    store.add("u", "用户怀孕7个月了", now=NOW)
    store.undo([first[0]], user_id="u", now=NOW)  # a turn stored before turns kept their telling
    assert store.get(first[0]).content == "用户怀孕了"


# 9: a naive import time is on the office clock ------------------------------------------------------------------
def test_a_naive_import_time_in_the_office_zone_is_not_refused_as_future(tmp_path):
    a = fake_assistant(tmp_path / "s", timezone="Asia/Shanghai")
    shanghai_now = (datetime.now(UTC) + timedelta(hours=8)).replace(tzinfo=None)
    mid, _ = a.remember("local", "用户常驻杭州", created_at=shanghai_now - timedelta(minutes=1))
    stored = datetime.fromisoformat(a.memory.get(mid).created_at)
    assert abs(stored - (datetime.now(UTC) - timedelta(minutes=1))) < timedelta(minutes=2)
    with pytest.raises(InputError, match="晚于现在"):  # an hour ahead on the office clock is still the future
        a.remember("local", "用户对花生过敏", created_at=shanghai_now + timedelta(hours=1))


def test_an_aware_import_time_keeps_its_own_zone(tmp_path):
    a = fake_assistant(tmp_path / "s", timezone="Asia/Shanghai")
    when = datetime(2026, 3, 1, 9, tzinfo=UTC)
    mid, _ = a.remember("local", "用户常驻杭州", created_at=when)
    assert datetime.fromisoformat(a.memory.get(mid).created_at) == when
