"""Review 384 #5: a retired version is read whole on 文档管理 (版本历史 → 查看某一版的全文); the facade gives it only to
someone who may read that version."""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with
from fakes import fake_assistant

from rag_core.types import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
ADMIN = Principal("wang", "admin")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()


def test_a_retired_version_is_read_whole_by_who_may_read_it(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "s")
    a.add_user("wang", "admin", "correct horse")
    a.add_user("li", "hr", "correct horse", actor=ADMIN)
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["managers"], actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", actor=ADMIN).version == 2
    assert any("五天" in text for text in a.version_text("年假制度", 1, actor=ADMIN))
    assert a.version_text("年假制度", 1, actor=Principal("li", "hr")) is None  # managers only: never shown to HR
    assert a.version_text("年假制度", 9, actor=ADMIN) is None
    at = logged_in_with(a, APP, "wang", "correct horse", tmp_path, monkeypatch)
    at.switch_page("pages/documents.py").run()
    at.main.selectbox[0].set_value("年假制度").run()
    assert not any("五天带薪年假" in t.value or "十天带薪年假" in t.value for t in at.text)  # closed: not built
    at.session_state["whole_open_年假制度"] = True  # open 查看某一版的全文
    at.run()
    at.selectbox(key="whole_年假制度").set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("五天带薪年假" in t.value for t in at.text), [t.value for t in at.text]
