"""Review 373 #1: 检索测试 showed its last result again after a new version or a delete, as if current: HR checking
that a change took effect was told the opposite. The page keeps the library's generation beside the result."""

from __future__ import annotations

from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant_with_samples


def _doc(amount: int) -> bytes:
    return (f"# 员工子女教育补贴办法\n\n## 第一条 补贴标准\n\n符合条件的员工，每名子女每月可领取子女教育补贴 {amount} 元，"
            "随当月工资发放。\n").encode()


def _shown(at) -> str:
    kinds = ("title", "markdown", "caption", "text", "code", "info", "warning", "error", "success")
    parts = [str(el.value) for kind in kinds for el in getattr(at, kind)] + [el.label for el in at.expander]
    return "\n".join(parts + [f.value.to_string() for f in at.dataframe])


def test_a_result_from_before_a_change_is_not_shown_as_current(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "store")
    assert a.ingest_bytes(_doc(1837), "子女教育补贴.md").status == "indexed"
    serve_desktop(a, tmp_path, monkeypatch)
    at = open_desktop_page("pages/retrieval_test.py")
    at.text_input(key="rt_question").set_value("子女教育补贴每月多少钱")
    next(b for b in at.button if b.label == "检索").click().run()
    assert "1837" in _shown(at)
    at.run()
    assert "1837" in _shown(at)  # nothing changed: the result stays
    assert a.ingest_bytes(_doc(2463), "子女教育补贴.md").version == 2
    at.switch_page("pages/documents.py").run()
    at.switch_page("pages/retrieval_test.py").run()
    assert "1837" not in _shown(at) and "已经过时" in _shown(at)
    at.text_input(key="rt_question").set_value("子女教育补贴每月多少钱")  # a page switch empties the box
    next(b for b in at.button if b.label == "检索").click().run()
    assert "2463" in _shown(at) and "1837" not in _shown(at)


def test_a_change_the_reader_cannot_see_moves_nothing(tmp_path):
    """Review 375 #6: the catalog's own counter told HR that a managers-only policy had just been uploaded."""
    from rag_core.types import Principal

    admin, hr = Principal("wang", "admin"), Principal("li", "hr")
    a = fake_assistant_with_samples(tmp_path / "store")
    before = a.library_generation(actor=hr)
    assert a.ingest_bytes(_doc(9999), "高管补贴.md", audience=["managers"], actor=admin).ok
    assert a.library_generation(actor=hr) == before
    assert a.ingest_bytes(_doc(1837), "子女教育补贴.md", actor=admin).ok
    assert a.library_generation(actor=hr) != before
