"""Review 52p #2: wordings a reader may not see (another audience's, or a held entry's) never use up the places
the nearest-wording search has, so they cannot keep a reader from the standard answer meant for them."""

from __future__ import annotations

from fakes import fake_assistant, fake_assistant_with_samples

from rag_core.insights import standard_search
from rag_core.types import Principal

E = Principal("e1", "employee")
M = Principal("m1", "employee", ("管理层",))
ADMIN = Principal("boss", "admin")
Q = "新员工的带薪年假有几天？"
SPACED = [Q[:i] + " " + Q[i:] for i in range(1, 8)]  # seven more wordings as near as the question itself


def _with_everyone_answer(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    a.add_standard_answer(Q + "？", "【全员】年假按工龄5到15天。", audience=["all"])
    assert a.ask(Q, actor=E, remember=False).answer == "【全员】年假按工龄5到15天。"
    return a


def test_another_audiences_wordings_do_not_crowd_out_the_readers_answer(tmp_path):
    a = _with_everyone_answer(tmp_path)
    a.add_standard_answer(Q, "【管理层】另加5天。", audience=["管理层"], variants=SPACED)
    trace = a.ask(Q, actor=E, remember=False)
    assert trace.answerer == "标准答复"
    assert trace.answer == "【全员】年假按工龄5到15天。"  # never the managers' answer


def test_a_manager_still_gets_the_nearest_answer_they_may_read(tmp_path):
    a = _with_everyone_answer(tmp_path)
    a.add_standard_answer(Q, "【管理层】另加5天。", audience=["管理层"], variants=SPACED)
    assert a.ask(Q, actor=M, remember=False).answer == "【管理层】另加5天。"


def test_a_held_entrys_wordings_do_not_crowd_out_a_served_one(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "store")
    a.standard_store.cosine_floor = 0.85  # bigram vectors of two wordings of one question are ~0.9 apart (e5: ~0.97)
    # the answer for everyone is asked in other words than the held one (a variant may not take a served question)
    a.add_standard_answer("新员工的带薪年假有几天啊？", "【全员】年假按工龄5到15天。", audience=["all"])
    assert a.ask(Q, actor=E, remember=False).answer == "【全员】年假按工龄5到15天。"
    bus = "# 星河科技有限公司班车管理办法\n\n## 第三条 班车\n\n公司每天早上八点发车。\n".encode()
    assert a.ingest_bytes(bus, "bus.md", actor=ADMIN).ok
    held = a.add_standard_answer(Q, "【旧】暂停的答复。", clauses=["《班车管理办法》第三条"], variants=SPACED, actor=ADMIN)
    assert a.ask(Q, actor=E, remember=False).answer == "【旧】暂停的答复。"  # the nearer one, while served
    a.delete_document(next(d.doc_id for d in a.list_documents(actor=ADMIN) if "班车" in d.title), actor=ADMIN)
    assert held.id in a.standard_answer_holds(actor=ADMIN)
    # its eight wordings, nearer than the served one's, no longer take the search's places
    assert a.ask(Q, actor=E, remember=False).answer == "【全员】年假按工龄5到15天。"


def test_a_reopened_store_still_matches(tmp_path):
    a = _with_everyone_answer(tmp_path)
    a.add_standard_answer(Q, "【管理层】另加5天。", audience=["管理层"], variants=SPACED)
    a.standard_store.close()
    b = fake_assistant(tmp_path / "store")
    assert b.ask(Q, actor=E, remember=False).answer == "【全员】年假按工龄5到15天。"
    assert b.ask(Q, actor=M, remember=False).answer == "【管理层】另加5天。"


def test_unfiltered_the_search_widens_past_wordings_the_reader_is_not_served(tmp_path, monkeypatch):
    """With very many entries the query is not filtered by id: looking further than the first places still finds
    the reader's answer, and never the other audience's."""
    monkeypatch.setattr(standard_search, "MAX_FILTER_IDS", 0)
    a = _with_everyone_answer(tmp_path)
    a.add_standard_answer(Q, "【管理层】另加5天。", audience=["管理层"], variants=SPACED)
    assert a.ask(Q, actor=E, remember=False).answer == "【全员】年假按工龄5到15天。"
    assert a.ask("公司的股票期权怎么行权？", actor=E, remember=False).answerer != "标准答复"  # below the floor: none
