"""退出登录 drops everything the pages kept for that person, not only the chat page's keys.

The 检索测试 result (the question, managers-only clauses, recalled personal memories), its question box and
a pending settings change outlived the logout: the next person on the tab saw them (found by review). A result
is also shown only to the person who ran it.
"""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with, submit_login
from fakes import fake_assistant

from rag_core import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PW = "correct horse"
ADMIN = Principal("wang", "admin")
HR = Principal("li", "hr")
SECRET = "# 高管薪酬制度\n\n第一条 高管年度股票期权授予额度为年薪的百分之三十，董事会秘密审批。\n"
PUBLIC = "# 考勤制度\n\n第一条 员工每天九点上班，迟到三次扣当月全勤奖。\n"


def store(tmp_path):
    a = fake_assistant(tmp_path / "store", memory_threshold=0.0)
    a.add_user("wang", "admin", PW)
    a.add_user("li", "hr", PW, actor=ADMIN)
    assert a.ingest_bytes(SECRET.encode(), "高管薪酬.md", audience=("managers",), actor=ADMIN).ok
    assert a.ingest_bytes(PUBLIC.encode(), "考勤制度.md", actor=ADMIN).ok
    a.remember("wang", "我怀孕7个月了，下个月要做产检", actor=ADMIN)
    return a


def page_text(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.text]
                    + [str(d.value) for d in at.dataframe])


def test_logout_drops_the_retrieval_test_and_every_other_per_person_key(tmp_path, monkeypatch):
    a = store(tmp_path)
    at = logged_in_with(a, APP, "wang", PW, tmp_path, monkeypatch)
    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_question").set_value("高管股票期权授予额度，产检假怎么请")
    next(b for b in at.button if b.label == "检索").click().run()
    assert not at.exception
    assert at.session_state["retrieval_chat_search"][1].result.hits  # wang (admin) reads the managers-only clause
    at.session_state["settings_pending_changes"] = {"chunk_size": 300}  # a re-cut waiting for wang's confirmation
    next(b for b in at.sidebar.button if b.label == "退出登录").click().run()
    at.run()
    left = [k for k in ("retrieval_chat_search", "rt_question", "rt_personal", "settings_pending_changes")
            if k in at.session_state]
    assert not left, left
    submit_login(at, "li", PW)
    at.switch_page("pages/retrieval_test.py").run()
    assert not at.exception
    text = page_text(at)
    assert "高管" not in text and "怀孕" not in text
    assert at.text_input(key="rt_question").value == ""


def test_a_result_kept_for_another_person_is_not_shown(tmp_path, monkeypatch):
    a = store(tmp_path)
    theirs = a.search_as_chat("高管股票期权授予额度，产检假怎么请", actor=ADMIN)
    assert theirs.result.hits and theirs.memories
    at = logged_in_with(a, APP, "li", PW, tmp_path, monkeypatch)
    at.session_state["retrieval_chat_search"] = (None, theirs, ADMIN, a.library_generation(actor=ADMIN))  # current
    at.session_state["retrieval_eval_result"] = ("秘密题集.jsonl", "hybrid", {"metrics": {}, "results": []}, ADMIN)
    at.switch_page("pages/retrieval_test.py").run()
    assert not at.exception
    text = page_text(at)
    assert "高管" not in text and "怀孕" not in text and "秘密题集" not in text
    assert "retrieval_chat_search" not in at.session_state and "retrieval_eval_result" not in at.session_state
